//go:build cgo && linux

package main

/*
#include <string.h>

extern char **environ;

// tsplab_c_locale runs before Go's runtime starts, so before Fyne's
// language package reads the locale in its init (which logs "Fyne error:
// Error parsing user locale C" for C.UTF-8 or POSIX.UTF-8 even on
// tsplab --help, before main can fix the environment). The variable that
// decides the language (the first of LC_ALL, LC_MESSAGES and LANG that is
// set) is rewritten in place from a C or POSIX value with a codeset to
// "en": the runtime copies the environment from these same strings, and
// "en" fits in any such value. Fyne's messages are English under the C
// locale anyway.
static void tsplab_c_locale(void) __attribute__((constructor));
static void tsplab_c_locale(void) {
	static const char *names[] = {"LC_ALL=", "LC_MESSAGES=", "LANG="};
	char *v = NULL;
	for (int i = 0; i < 3 && v == NULL; i++) {
		size_t k = strlen(names[i]);
		for (char **e = environ; e != NULL && *e != NULL; e++) {
			if (strncmp(*e, names[i], k) == 0 && (*e)[k] != 0) {
				v = *e + k;
				break;
			}
		}
	}
	if (v == NULL) {
		return;
	}
	size_t lang = strcspn(v, ".@");
	int c = lang == 1 && v[0] == 'C';
	int posix = lang == 5 && strncmp(v, "POSIX", 5) == 0;
	if ((c || posix) && strlen(v) >= 2) {
		v[0] = 'e';
		v[1] = 'n';
		v[2] = 0;
	}
}
*/
import "C"
