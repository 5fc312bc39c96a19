// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A main() for the fuzz targets without libFuzzer: run LLVMFuzzerTestOneInput
 * once on every file in the directories (or files) given.  make
 * check-valgrind links each target with it and replays the corpora under
 * memcheck in one process per target.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return -1;
	uint8_t *buf = malloc(1 << 20);
	if (!buf)
		abort();
	size_t n = fread(buf, 1, 1 << 20, f);
	fclose(f);
	/* Copy to an exact-size allocation so memcheck sees overreads. */
	uint8_t *exact = malloc(n ? n : 1);
	if (!exact)
		abort();
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long runs = 0;

	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		if (!d) {
			if (run_file(argv[i]) == 0)
				runs++;
			continue;
		}
		for (struct dirent *de; (de = readdir(d));) {
			char path[4096];
			if (de->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], de->d_name);
			if (run_file(path) == 0)
				runs++;
		}
		closedir(d);
	}
	printf("%s: %lu inputs\n", argv[0], runs);
	return 0;
}
