#!/bin/sh
# Runs a command in network, mount and PID namespaces of its own: only loopback (brought up), /sys remounted so
# /sys/class/net shows this namespace, and every process inside killed when unshare or its first child ends. Inside,
# the ephemeral port range is widened and TIME_WAIT ports are reused, so 100,000 fresh connections do not run out of ports.
# usage: scripts/in-netns.sh COMMAND [ARG...]   (needs root, or unprivileged user namespaces; util-linux unshare)
set -eu
[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }
exec unshare --net --mount --propagation private --pid --fork --kill-child --mount-proc \
  sh -c 'mount -t sysfs sysfs /sys && ip link set lo up \
    && echo "1024 65535" > /proc/sys/net/ipv4/ip_local_port_range && echo 1 > /proc/sys/net/ipv4/tcp_tw_reuse && exec "$@"' in-netns "$@"
