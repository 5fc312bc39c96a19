/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Small helpers shared by every module: cleanup attributes, ownership
 * transfer, array sizes.  Header-only, no state.
 */
#pragma once

#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#define _cleanup_(f)   __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _unused_       __attribute__((unused))
#define _noreturn_     __attribute__((noreturn))
#define _nonnull_      __attribute__((nonnull))
/* Code that runs while a sandbox lives (the supervisor's and init's
 * waits, the trim): the compiler puts it in .text.hot sections, which the
 * link places first of all (Makefile, HOT_LD), so that after a trim it
 * faults back as few pages as possible (base/trim.h); never inlined into a
 * caller outside it. */
#define _waiting_ __attribute__((hot, noinline))

/* Constants a default launch never reads (the --help text; the profiles'
 * texts are marked the same way by tools/profile_embed.c): placed after the
 * others, with the static libraries' tables (Makefile, HOT_LD), so that the
 * pages a launch does read lie together. */
#define _cold_data_ __attribute__((section(".rodata.nsb_cold")))

/* Static storage a run writes little of, or none: in .lbss, which the
 * linker puts after all of .bss, so that the few bytes of every other
 * static (nsbox's and its libraries') share the page of .data each process
 * writes anyway instead of being spread past the large objects (main.c). */
#define _large_bss_(name) __attribute__((section(".lbss." name)))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* 1 in an AddressSanitizer build (gcc's macro, or clang's feature test). */
#if defined(__SANITIZE_ADDRESS__)
#define NSB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define NSB_ASAN 1
#endif
#endif
#ifndef NSB_ASAN
#define NSB_ASAN 0
#endif

/* 0, or a compile error when the string literal s does not fit a char[n]
 * with its NUL: C lets one of exactly n bytes in, unterminated.  For
 * pointer-free tables, whose strings are arrays (a pointer in a constant
 * table is a relocation in a PIE: its page is copied in every process). */
#define NSB_FITS0(s, n) (0 * sizeof(struct { int fits : sizeof(s) <= (n) ? 1 : -1; }))

static inline void nsb_freep(void *p)
{
	free(*(void **)p);
}

/* close() that keeps errno, so a cleanup never clobbers the error we return,
 * and forgets the fd, so a second close can never hit a reused number. */
static inline void nsb_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
		*fd = -1;
	}
}

#define _cleanup_free_	_cleanup_(nsb_freep)
#define _cleanup_close_ _cleanup_(nsb_closep)

/* Ownership leaves a scope only through these. */
#define TAKE_PTR(p)                       \
	({                                \
		__typeof__(p) _tp_ = (p); \
		(p) = NULL;               \
		_tp_;                     \
	})
#define TAKE_FD(fd)              \
	({                       \
		int _tf_ = (fd); \
		(fd) = -1;       \
		_tf_;            \
	})

/* Turn a libc-style "-1 and errno" into "-errno", never 0. */
static inline int nsb_negerrno(void)
{
	return errno > 0 ? -errno : -EIO;
}
