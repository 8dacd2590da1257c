#!/usr/bin/env bash
# test-tools.sh: installs, as root where apt-get is, what the tests need
# beyond Go, so that they run rather than skip: .ci/run's first step, and
# scripts/mutation.sh's (a test that skips kills no mutant). Says which
# are still missing; a test that cannot have one skips and says why.
set -uo pipefail
# mkfs.ext4, mkfs.xfs, mkfs.btrfs and mount for the loop-mounted
# file-system tests (XFS and btrfs for reflinks), and mkfs.vfat and
# mkfs.exfat (with FUSE drivers for kernels without FAT: fusefat,
# exfat-fuse) for the snapshot tests' 2 s timestamps; a test that cannot
# have them skips and says why.
if ! command -v mkfs.ext4 >/dev/null || ! command -v mkfs.xfs >/dev/null || ! command -v mkfs.btrfs >/dev/null || ! command -v mount >/dev/null ||
	! command -v mkfs.vfat >/dev/null || ! command -v mkfs.exfat >/dev/null || ! command -v fusefat >/dev/null || ! command -v mount.exfat-fuse >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		{ apt-get update -qq && apt-get install -y -qq e2fsprogs xfsprogs btrfs-progs mount dosfstools exfatprogs fusefat exfat-fuse >/dev/null; } || true
	fi
fi
# setfacl (acl) for the clone's tests of ACLs: a destination's default
# ACL, a shared directory swapped in for the work directory.
if ! command -v setfacl >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	{ apt-get update -qq && apt-get install -y -qq acl >/dev/null; } || true
fi
# tmux for the browser's tests in a real terminal, ncdu and gdu for the
# export and import round trips against the real tools, strace to count a
# names-only walk's stat calls, trash-cli to read back what the browser
# moves to the trash.
if ! command -v tmux >/dev/null || ! command -v ncdu >/dev/null || ! command -v gdu >/dev/null || ! command -v strace >/dev/null || ! command -v trash-list >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		{ apt-get update -qq && apt-get install -y -qq tmux ncdu gdu strace trash-cli >/dev/null; } || true
	fi
fi
# groff and man-db to check and find the man pages; zsh and fish for the
# completion scripts' syntax checks.
if ! command -v groff >/dev/null || ! command -v man >/dev/null || ! command -v zsh >/dev/null || ! command -v fish >/dev/null; then
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
		{ apt-get update -qq && apt-get install -y -qq groff-base man-db zsh fish >/dev/null; } || true
	fi
fi
for t in setfacl tmux ncdu gdu strace zsh fish; do command -v $t >/dev/null || echo "not installed: $t (its tests skip)"; done
