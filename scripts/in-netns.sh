#!/bin/sh
# Runs a command in network, mount and PID namespaces of its own: only loopback (brought up), /sys remounted so
# /sys/class/net shows this namespace, and every process inside killed when unshare or its first child ends.
# usage: scripts/in-netns.sh COMMAND [ARG...]   (needs root, or unprivileged user namespaces; util-linux unshare)
set -eu
[ "$#" -gt 0 ] || { echo "usage: $0 COMMAND [ARG...]" >&2; exit 2; }
exec unshare --net --mount --propagation private --pid --fork --kill-child --mount-proc \
  sh -c 'mount -t sysfs sysfs /sys && ip link set lo up && exec "$@"' in-netns "$@"
