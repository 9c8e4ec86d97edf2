/* common/anon_maps.c - this process's anonymous pages by what holds them, from /proc/self/smaps
 * (the classification: docs/allocator-stats.md, "Resident heap"). */
#define _GNU_SOURCE
#include "anon_maps.h"

#include <dirent.h>
#include <fcntl.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ANON_MAPS_MAX_SEGMENTS 512
#define ANON_MAPS_MAX_STACKS 64

/* Address ranges known before smaps is read: the loaded objects' writable segments (their .bss
 * is an anonymous mapping with no name) and one address inside each known thread stack. */
struct anon_maps_known {
	uintptr_t seg_start[ANON_MAPS_MAX_SEGMENTS], seg_end[ANON_MAPS_MAX_SEGMENTS];
	unsigned segments;
	uintptr_t stack_sp[ANON_MAPS_MAX_STACKS];
	unsigned stacks;
};

enum anon_maps_kind { KIND_BRK, KIND_UNNAMED, KIND_OBJECT, KIND_STACK, KIND_SPECIAL };

long long anon_maps_allocator_kb(const struct anon_maps *m)
{
	return m->brk_kb + m->unnamed_kb;
}

long long anon_maps_outside_kb(const struct anon_maps *m)
{
	return m->objects_kb + m->stacks_kb + m->special_kb;
}

static int anon_maps_segment(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	struct anon_maps_known *k = data;
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
			continue;
		if (k->segments == ANON_MAPS_MAX_SEGMENTS)
			return 1;
		uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)ph->p_vaddr;
		k->seg_start[k->segments] = start;
		k->seg_end[k->segments++] = start + (uintptr_t)ph->p_memsz;
	}
	return 0;
}

/* "NR args... SP PC" while the thread waits; "running" (no pointer) while it runs. */
static void anon_maps_thread_sp(struct anon_maps_known *k, int task_dir, const char *tid)
{
	char path[64];
	size_t len = strlen(tid);
	if (len + sizeof("/syscall") > sizeof(path) || k->stacks == ANON_MAPS_MAX_STACKS)
		return;
	memcpy(path, tid, len);
	memcpy(path + len, "/syscall", sizeof("/syscall"));
	int fd = openat(task_dir, path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	char *pc = strrchr(buf, ' ');
	if (!pc)
		return;
	*pc = '\0';
	char *sp = strrchr(buf, ' ');
	sp = sp ? sp + 1 : buf;
	if (strncmp(sp, "0x", 2) == 0)
		k->stack_sp[k->stacks++] = (uintptr_t)strtoull(sp, NULL, 16);
}

/* linux_dirent64, as getdents64 fills it (no libc wrapper in every libc we build with, and
 * opendir would allocate). */
struct anon_maps_dirent {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

static void anon_maps_thread_stacks(struct anon_maps_known *k)
{
	int dir = open("/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	char self[24]; /* the calling thread: its stack is known by its own frame */
	snprintf(self, sizeof(self), "%ld", (long)syscall(SYS_gettid));
	char buf[4096] __attribute__((aligned(8)));
	long n;
	while ((n = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0)
		for (long off = 0; off < n;) {
			struct anon_maps_dirent *d = (struct anon_maps_dirent *)(buf + off);
			off += d->reclen;
			if (d->name[0] != '.' && strcmp(d->name, self) != 0)
				anon_maps_thread_sp(k, dir, d->name);
		}
	close(dir);
}

/* A mapping header: "start-end perms offset dev inode [path]". */
static enum anon_maps_kind anon_maps_classify(const struct anon_maps_known *k, const char *line,
                                              long long *size_kb)
{
	char *p;
	uintptr_t start = (uintptr_t)strtoull(line, &p, 16);
	uintptr_t end = (uintptr_t)strtoull(p + 1, &p, 16);
	*size_kb = (long long)((end - start) / 1024);
	/* perms, offset, dev: skipped as words */
	for (int word = 0; word < 3; word++) {
		while (*p == ' ')
			p++;
		while (*p && *p != ' ')
			p++;
	}
	unsigned long long inode = strtoull(p, &p, 10);
	while (*p == ' ')
		p++;
	for (unsigned i = 0; i < k->stacks; i++)
		if (k->stack_sp[i] >= start && k->stack_sp[i] < end)
			return KIND_STACK;
	if (strcmp(p, "[heap]") == 0)
		return KIND_BRK;
	if (strcmp(p, "[stack]") == 0)
		return KIND_STACK;
	if (inode != 0 || p[0] == '/')
		return KIND_OBJECT;
	for (unsigned i = 0; i < k->segments; i++)
		if (start < k->seg_end[i] && k->seg_start[i] < end)
			return KIND_OBJECT;
	/* a name a program gave its anonymous map (prctl PR_SET_VMA_ANON_NAME) is still anonymous
	 */
	if (p[0] == '\0' || strncmp(p, "[anon:", 6) == 0)
		return KIND_UNNAMED;
	return KIND_SPECIAL;
}

static void anon_maps_add(struct anon_maps *m, enum anon_maps_kind kind, long long size_kb,
                          long long anon_kb)
{
	switch (kind) {
	case KIND_BRK:
		m->brk_kb += anon_kb;
		m->brk_size_kb += size_kb;
		break;
	case KIND_UNNAMED:
		m->unnamed_kb += anon_kb;
		m->unnamed_size_kb += size_kb;
		m->unnamed_count++;
		break;
	case KIND_OBJECT:
		m->objects_kb += anon_kb;
		break;
	case KIND_STACK:
		m->stacks_kb += anon_kb;
		break;
	case KIND_SPECIAL:
		m->special_kb += anon_kb;
		break;
	}
}

/* Field lines start with a capital ("Anonymous:   12 kB"), headers with a hex digit. */
struct anon_maps_reader {
	const struct anon_maps_known *known;
	struct anon_maps *out;
	enum anon_maps_kind kind;
	long long size_kb;
	bool in_map;
};

static void anon_maps_line(struct anon_maps_reader *r, const char *line)
{
	if ((line[0] >= '0' && line[0] <= '9') || (line[0] >= 'a' && line[0] <= 'f')) {
		r->kind = anon_maps_classify(r->known, line, &r->size_kb);
		r->in_map = true;
	} else if (r->in_map && strncmp(line, "Anonymous:", 10) == 0) {
		anon_maps_add(r->out, r->kind, r->size_kb, strtoll(line + 10, NULL, 10));
		r->in_map = false;
	}
}

bool anon_maps_read(struct anon_maps *out)
{
	memset(out, 0, sizeof(*out));
	struct anon_maps_known known = {0};
	int here; /* on the calling thread's stack */
	known.stack_sp[known.stacks++] = (uintptr_t)&here;
	anon_maps_thread_stacks(&known);
	dl_iterate_phdr(anon_maps_segment, &known);
	int fd = open("/proc/self/smaps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct anon_maps_reader r = {.known = &known, .out = out};
	char buf[16384];
	size_t have = 0;
	bool skipping = false; /* the rest of a line longer than the buffer */
	ssize_t n;
	while ((n = read(fd, buf + have, sizeof(buf) - 1 - have)) > 0) {
		have += (size_t)n;
		buf[have] = '\0';
		char *start = buf, *nl;
		while ((nl = memchr(start, '\n', (size_t)(buf + have - start)))) {
			*nl = '\0';
			if (!skipping)
				anon_maps_line(&r, start);
			skipping = false;
			start = nl + 1;
		}
		have -= (size_t)(start - buf);
		memmove(buf, start, have);
		if (have == sizeof(buf) - 1) {
			/* longer than a header with the longest path: not a line we need */
			have = 0;
			skipping = true;
		}
	}
	close(fd);
	return n == 0;
}
