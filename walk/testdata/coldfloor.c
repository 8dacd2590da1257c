// coldfloor: the least a parallel walk of a tree can do, for timing cold
// walks against: N threads share a stack of directories (last in, first
// out, as walk's); each opens one, reads it with getdents64, stats every
// entry that is not a directory with fstatat relative to it, pushes its
// subdirectories and sums the blocks. No safety checks, no hard-link set,
// no report: what is left is the kernel's work and the disk's.
//
//	cc -O2 -pthread -o coldfloor walk/testdata/coldfloor.c
//	./coldfloor [-j N] DIR     prints the blocks (KiB) and the entries
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
#include <unistd.h>

struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static char **stack;
static size_t depth, room;
static int busy;
static uint64_t blocks, entries;

static void push(char *path) {
	if (depth == room) {
		room = room ? 2 * room : 1024;
		stack = realloc(stack, room * sizeof *stack);
		if (!stack) {
			perror("realloc");
			exit(1);
		}
	}
	stack[depth++] = path;
}

// take waits for a directory, or returns NULL once none is left and no
// thread is listing one (which might push more).
static char *take(void) {
	pthread_mutex_lock(&mu);
	while (depth == 0 && busy > 0)
		pthread_cond_wait(&cond, &mu);
	char *path = NULL;
	if (depth > 0) {
		path = stack[--depth];
		busy++;
	}
	pthread_mutex_unlock(&mu);
	if (!path)
		pthread_cond_broadcast(&cond);
	return path;
}

static void visit(char *path, char *buf, size_t size, uint64_t *b, uint64_t *n) {
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	if (fstat(fd, &st) == 0)
		*b += st.st_blocks;
	size_t len = strlen(path);
	for (;;) {
		long got = syscall(SYS_getdents64, fd, buf, size);
		if (got <= 0)
			break;
		for (long off = 0; off < got;) {
			struct linux_dirent64 *d = (void *)(buf + off);
			off += d->d_reclen;
			const char *name = d->d_name;
			if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			++*n;
			if (d->d_type == DT_DIR) {
				size_t nl = strlen(name);
				char *sub = malloc(len + nl + 2);
				memcpy(sub, path, len);
				sub[len] = '/';
				memcpy(sub + len + 1, name, nl + 1);
				pthread_mutex_lock(&mu);
				push(sub);
				pthread_mutex_unlock(&mu);
				pthread_cond_signal(&cond);
			} else if (fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
				*b += st.st_blocks;
			}
		}
	}
	close(fd);
}

static void *worker(void *arg) {
	(void)arg;
	size_t size = 64 << 10;
	char *buf = malloc(size);
	uint64_t b = 0, n = 0;
	for (char *path; (path = take());) {
		visit(path, buf, size, &b, &n);
		free(path);
		pthread_mutex_lock(&mu);
		int done = --busy == 0 && depth == 0;
		pthread_mutex_unlock(&mu);
		if (done)
			pthread_cond_broadcast(&cond);
	}
	pthread_mutex_lock(&mu);
	blocks += b;
	entries += n;
	pthread_mutex_unlock(&mu);
	free(buf);
	return NULL;
}

int main(int argc, char **argv) {
	int threads = 8;
	if (argc == 4 && strcmp(argv[1], "-j") == 0) {
		threads = atoi(argv[2]);
		argv += 2;
		argc -= 2;
	}
	if (argc != 2 || threads < 1) {
		fprintf(stderr, "usage: coldfloor [-j N] DIR\n");
		return 2;
	}
	struct stat st;
	if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
		fprintf(stderr, "coldfloor: %s: not a directory\n", argv[1]);
		return 1;
	}
	push(strdup(argv[1]));
	pthread_t *t = calloc(threads, sizeof *t);
	for (int i = 0; i < threads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	printf("%llu KiB\t%llu entries\n", (unsigned long long)blocks / 2, (unsigned long long)entries);
	return 0;
}
