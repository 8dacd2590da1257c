#!/usr/bin/env bash
# synthfs.sh: a synthetic tree of N entries on a directory, through FUSE
# (cmd/internal/synthfs: every entry computed from its inode, none stored):
#
#   scripts/synthfs.sh start DIR N [DELAY]   mount it (DELAY per directory
#                                            opened, e.g. 50ms: a slow tree)
#   scripts/synthfs.sh stop DIR              unmount it, and forget the
#                                            kernel's cache of its inodes
#
# Needs root and /dev/fuse. The kernel keeps about 1 KiB an entry looked up
# (fuse_inode and dentry) until unmounted or reclaimed.
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:?start or stop}
dir=${2:?directory}
case $cmd in
start)
	n=${3:?entries}
	bin=$(mktemp -d)/synthfs
	go build -o "$bin" ./cmd/internal/synthfs/synthfs
	mkdir -p "$dir"
	"$bin" -entries "$n" -delay "${4:-0}" "$dir" >"$bin.log" 2>&1 &
	echo $! >"${dir%/}.synthfs.pid"
	for _ in $(seq 100); do
		grep -q entries "$bin.log" 2>/dev/null && { cat "$bin.log"; exit 0; }
		kill -0 $! 2>/dev/null || break
		sleep 0.1
	done
	cat "$bin.log" >&2
	exit 1
	;;
stop)
	umount "$dir" 2>/dev/null || umount -l "$dir"
	pidfile="${dir%/}.synthfs.pid"
	if [ -f "$pidfile" ]; then # the server ends once unmounted
		pid=$(cat "$pidfile")
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
		kill "$pid" 2>/dev/null || true
		rm -f "$pidfile"
	fi
	if mountpoint -q "$dir"; then
		echo "synthfs.sh: $dir is still mounted" >&2
		exit 1
	fi
	sync
	echo 2 >/proc/sys/vm/drop_caches # the inodes and dentries it left
	;;
*)
	echo "usage: $0 start DIR N [DELAY] | stop DIR" >&2
	exit 2
	;;
esac
