#!/usr/bin/env bash
# Runs a command inside a Debian root made by firmware/debian-root.sh, with this machine's kernel, network and pids:
# a private mount namespace binds /dev, /proc, /sys, /tmp and the repository in at the same paths (and its
# node_modules' real folder, when that is a link out of the repository, as in a git worktree), then chroot, and
# the command starts in the caller's working directory (or / when the root has no such folder). It is exec'd all the
# way, so the command keeps this script's pid (signals reach it) and the mounts vanish when it and its children end.
# usage: firmware/in-debian-root.sh ROOT COMMAND [ARG...]     (needs root)
set -euo pipefail
root=$(cd "${1:?usage: in-debian-root.sh ROOT COMMAND...}" && pwd)
shift
repo=$(cd "$(dirname "$0")/.." && pwd)
[ -e "$root/.complete" ] || { echo "$root is not a finished Debian root (firmware/debian-root.sh makes one)" >&2; exit 2; }
[ -d "$root$repo" ] || mkdir -p "$root$repo"
modules=$(readlink -f "$repo/node_modules" 2>/dev/null || true)
case "$modules" in "$repo"/*|'') modules= ;; *) [ -d "$root$modules" ] || mkdir -p "$root$modules" ;; esac
# bind mounts keep the source's flags, so a read-only / outside stays read-only inside
exec unshare --mount --propagation private /bin/sh -c '
  root=$1 repo=$2 cwd=$3 modules=$4; shift 4
  # the root bound onto itself: / inside is then a mount point, so unshare --propagation and remounts of / work there
  mount --bind "$root" "$root"
  mount --bind "$repo" "$root$repo"
  [ -z "$modules" ] || mount --bind "$modules" "$root$modules"
  for d in /dev /proc /sys /tmp; do mount --rbind "$d" "$root$d"; done
  exec chroot "$root" /bin/sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$cwd" "$@"
' sh "$root" "$repo" "$PWD" "$modules" "$@"
