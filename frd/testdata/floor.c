// floor.c: the C floor for frd's Linux listing benchmark. It makes the same
// system calls as frd.Lister.AppendHandle on a directory it opens itself:
// open, getdents64 into a 64 KiB buffer, one statx per regular file (or
// DT_UNKNOWN entry) relative to the directory with the same flags and mask,
// close. It prints Go benchmark lines, so benchstat reads it beside
// `go test -bench`:
//
//	cc -O2 -pthread -o floor floor.c
//	./floor -name 'BenchmarkList/n=1000/impl=C-floor' -time 1 DIR
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static char buf[64 << 10];
static volatile int64_t sink;

// list lists dir once and returns the number of entries, or -1.
static long list(const char *dir, int mask) {
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	long n = 0;
	for (;;) {
		long got = syscall(SYS_getdents64, fd, buf, sizeof buf);
		if (got <= 0) {
			close(fd);
			return got < 0 ? -1 : n;
		}
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (struct linux_dirent64 *)(buf + off);
			off += d->d_reclen;
			const char *nm = d->d_name;
			if (nm[0] == '.' && (nm[1] == 0 || (nm[1] == '.' && nm[2] == 0)))
				continue;
			n++;
			if (mask && (d->d_type == DT_REG || d->d_type == DT_UNKNOWN)) {
				struct statx stx;
				if (statx(fd, nm, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_STATX_DONT_SYNC, mask, &stx) == 0)
					sink += stx.stx_size + stx.stx_mtime.tv_sec;
			}
		}
	}
}

// idle is a second thread that never runs: a process of more than one
// thread, as every Go program is, makes the kernel count references to the
// directory's open file on every system call given its descriptor.
static void *idle(void *arg) {
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
	const char *name = "BenchmarkFloor";
	double benchtime = 1;
	int mask = STATX_TYPE | STATX_SIZE | STATX_MTIME | STATX_CTIME | STATX_INO | STATX_NLINK | STATX_BLOCKS;
	int i = 1;
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-name"))
			name = argv[i + 1];
		else if (!strcmp(argv[i], "-time"))
			benchtime = atof(argv[i + 1]);
		else if (!strcmp(argv[i], "-names"))
			mask = atoi(argv[i + 1]) ? 0 : mask;
		else if (!strcmp(argv[i], "-threads") && atoi(argv[i + 1]) > 1) {
			pthread_t t;
			if (pthread_create(&t, NULL, idle, NULL) != 0) {
				perror("pthread_create");
				return 1;
			}
		}
	}
	if (i != argc - 1) {
		fprintf(stderr, "usage: floor [-name NAME] [-time SECONDS] [-names 1] [-threads 2] DIR\n");
		return 2;
	}
	const char *dir = argv[i];
	if (list(dir, mask) < 0) {
		perror(dir);
		return 1;
	}
	// Grow the iteration count as Go's testing package does, until one
	// round takes the bench time.
	long iters = 1;
	for (;;) {
		double t0 = now();
		for (long k = 0; k < iters; k++)
			list(dir, mask);
		double dt = now() - t0;
		if (dt >= benchtime || iters >= 1000000000L) {
			printf("%s\t%ld\t%.0f ns/op\n", name, iters, dt * 1e9 / iters);
			return 0;
		}
		long next = dt > 0 ? (long)(iters * benchtime * 1.2 / dt) : iters * 100;
		if (next > iters * 100)
			next = iters * 100;
		iters = next > iters ? next : iters + 1;
	}
}
