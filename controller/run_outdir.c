/* controller/run_outdir.c - a run's folder, new or empty and ours (run_outdir.h). */
#include "run_outdir.h"

#include <dirent.h>
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_parse.h"

#define OUTDIR_PATH_MAX 4096

/* path without trailing slashes ("/" stays), so that a link is seen as one. */
static void outdir_trim(const char *path, char *out, size_t size)
{
	snprintf(out, size, "%s", path);
	size_t n = strlen(out);
	while (n > 1 && out[n - 1] == '/')
		out[--n] = '\0';
}

static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

/* s quoted as bash's printf %q quotes a control character: $'...' with \n, \t, \ooo. */
static void quote_control(const char *s, char *out, size_t size)
{
	size_t n = (size_t)snprintf(out, size, "$'");
	for (; *s && n + 6 < size; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n')
			n += (size_t)snprintf(out + n, size - n, "\\n");
		else if (c == '\t')
			n += (size_t)snprintf(out + n, size - n, "\\t");
		else if (c < 0x20 || c == 0x7f)
			n += (size_t)snprintf(out + n, size - n, "\\%03o", c);
		else if (c == '\'' || c == '\\')
			n += (size_t)snprintf(out + n, size - n, "\\%c", c);
		else
			out[n++] = (char)c;
	}
	snprintf(out + n, size - n, "'");
}

static bool dir_empty(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return false;
	struct dirent *e;
	bool empty = true;
	while (empty && (e = readdir(d)))
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

bool run_outdir_ok(const char *path, char *why, size_t size)
{
	char dir[OUTDIR_PATH_MAX];
	struct stat st;
	if (has_control(path)) {
		char quoted[OUTDIR_PATH_MAX];
		quote_control(path, quoted, sizeof(quoted));
		snprintf(why, size,
		         "the path %s holds a control character (a newline, a tab, ...); choose a "
		         "plain one",
		         quoted);
		return false;
	}
	outdir_trim(path, dir, sizeof(dir));
	if (lstat(dir, &st) != 0)
		return true; /* nothing there: made new */
	if (S_ISLNK(st.st_mode))
		snprintf(why, size, "%s is a symbolic link; give the folder itself", dir);
	else if (!S_ISDIR(st.st_mode))
		snprintf(why, size, "%s exists and is not a folder", dir);
	else if (st.st_uid != geteuid())
		snprintf(
		    why, size,
		    "%s is not owned by you (uid %ld); a run writes only into a folder of yours",
		    dir, (long)geteuid());
	else if (access(dir, R_OK | X_OK) != 0)
		snprintf(why, size, "%s cannot be listed, so it cannot be shown to be empty", dir);
	else if (!dir_empty(dir))
		snprintf(why, size,
		         "%s exists and is not empty; a run writes only into a new or empty folder",
		         dir);
	else
		return true;
	return false;
}

/* Every folder above dir made when missing (mkdir -p of its parent). */
static bool make_parents(const char *dir)
{
	char p[OUTDIR_PATH_MAX];
	snprintf(p, sizeof(p), "%s", dir);
	char *slash = strrchr(p, '/');
	if (!slash || slash == p)
		return true;
	*slash = '\0';
	for (char *s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0777) != 0 && errno != EEXIST)
			return false;
		*s = '/';
	}
	return mkdir(p, 0777) == 0 || errno == EEXIST;
}

bool run_outdir_make(const char *path, char *why, size_t size)
{
	char dir[OUTDIR_PATH_MAX];
	struct stat st;
	if (!run_outdir_ok(path, why, size))
		return false;
	outdir_trim(path, dir, sizeof(dir));
	if (lstat(dir, &st) == 0)
		return true;
	if (!make_parents(dir)) {
		char parent[OUTDIR_PATH_MAX];
		snprintf(parent, sizeof(parent), "%s", dir);
		char *slash = strrchr(parent, '/');
		*slash = '\0';
		snprintf(why, size, "cannot create the folder %s", parent);
		return false;
	}
	/* not -p: a folder (or link) that appeared since the check is not taken */
	if (mkdir(dir, 0777) != 0) {
		snprintf(why, size,
		         "cannot create %s (it exists now, or its parent is not writable)", dir);
		return false;
	}
	return true;
}

void run_outdir_usage(FILE *out)
{
	fprintf(out, "allocspike-run outdir [--check] DIR\n"
	             "  DIR made a run's folder (new, or an empty one of yours: docs/cli.md, "
	             "\"--out\"); with\n"
	             "  --check only whether it can be; why not on stdout, exit 1\n");
}

int run_outdir_main(int argc, char **argv)
{
	bool check = argc == 3 && strcmp(argv[1], "--check") == 0;
	if (argc != 2 + check || argv[1 + check][0] == '\0' ||
	    (!check && argv[1][0] == '-' && argv[1][1] == '-')) {
		run_outdir_usage(stderr);
		return CLI_EXIT_USAGE;
	}
	char why[2 * OUTDIR_PATH_MAX];
	const char *dir = argv[1 + check];
	if (check ? run_outdir_ok(dir, why, sizeof(why)) : run_outdir_make(dir, why, sizeof(why)))
		return CLI_EXIT_OK;
	printf("%s\n", why);
	return CLI_EXIT_FAILED;
}
