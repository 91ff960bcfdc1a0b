/* -*- Mode: C; c-basic-offset:4 ; indent-tabs-mode:nil -*- */
/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 */

/*
 * shmcico-bench's command line: the help text, each option's parser and
 * the checks of the whole (bench.h: bench_parse_options()).  Rank 0
 * prints what is wrong; every rank parses the same arguments.
 */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_judge.h"

static int bench_rank;

/* ---------------------------------------------------------------- */
/* options */

enum {
    OPT_OPS = 256, OPT_COMPONENTS, OPT_SIZES, OPT_MIN_SIZE, OPT_MAX_SIZE,
    OPT_SYNC, OPT_SYNC_ROUNDS, OPT_TIMER, OPT_LATE_NS, OPT_LATE_PCT, OPT_TRIM,
    OPT_REL_ERROR, OPT_MIN_LAUNCHES, OPT_MAX_LAUNCHES, OPT_MAX_SECONDS,
    OPT_CACHE, OPT_COLD_POOL, OPT_ROOT, OPT_COUNTS, OPT_WAIT_NS, OPT_CSV, OPT_QUIET,
    OPT_HELP = 'h'
};

static const struct option long_options[] = {
    { "ops", required_argument, NULL, OPT_OPS },
    { "components", required_argument, NULL, OPT_COMPONENTS },
    { "sizes", required_argument, NULL, OPT_SIZES },
    { "min-size", required_argument, NULL, OPT_MIN_SIZE },
    { "max-size", required_argument, NULL, OPT_MAX_SIZE },
    { "sync", required_argument, NULL, OPT_SYNC },
    { "sync-rounds", required_argument, NULL, OPT_SYNC_ROUNDS },
    { "timer", required_argument, NULL, OPT_TIMER },
    { "late-ns", required_argument, NULL, OPT_LATE_NS },
    { "late-pct", required_argument, NULL, OPT_LATE_PCT },
    { "trim", required_argument, NULL, OPT_TRIM },
    { "rel-error", required_argument, NULL, OPT_REL_ERROR },
    { "min-launches", required_argument, NULL, OPT_MIN_LAUNCHES },
    { "max-launches", required_argument, NULL, OPT_MAX_LAUNCHES },
    { "max-seconds", required_argument, NULL, OPT_MAX_SECONDS },
    { "cache", required_argument, NULL, OPT_CACHE },
    { "cold-pool", required_argument, NULL, OPT_COLD_POOL },
    { "root", required_argument, NULL, OPT_ROOT },
    { "counts", required_argument, NULL, OPT_COUNTS },
    { "wait-ns", required_argument, NULL, OPT_WAIT_NS },
    { "csv", required_argument, NULL, OPT_CSV },
    { "quiet", no_argument, NULL, OPT_QUIET },
    { "help", no_argument, NULL, OPT_HELP },
    { NULL, 0, NULL, 0 }
};

/* The help text, by section, printed as it stands (not a format). */
static const char *const help_sections[] = {
    /* usage and the method */
"Usage: mpirun -np P shmcico-bench [OPTION]...\n"
"\n"
"Times MPI collectives with synchronised starts (the MPIPerf method) and\n"
"compares coll components side by side in one run: one communicator per\n"
"component (MPI_Comm_dup_with_info with ompi_comm_coll_preference), their\n"
"launches interleaved.  A launch starts on every rank at the same global\n"
"time (clock offsets estimated by ping-pong), counts when every rank starts\n"
"on time and ends inside its slot, and takes the largest end time over the\n"
"ranks.  The first stage of each point is a warm-up.  Times are in us.\n"
"\n",
    /* what to measure */
"What to measure:\n"
"  --ops LIST          operations, comma separated (default all): bcast,\n"
"                      scatter, scatterv, gather, gatherv, allgather,\n"
"                      allgatherv, and the self-checks null (every rank\n"
"                      returns at once: expect ~0) and waitup (rank r waits\n"
"                      (r+1)*D: expect P*D); 'all' names all of them\n"
"  --components LIST   coll components (default shmcico,tuned): the first is\n"
"                      measured, the others are baselines, each on its own\n"
"                      communicator (preference 'NAME,^FIRST', so that the\n"
"                      measured component never serves a baseline); a\n"
"                      component may carry info hints for its communicator,\n"
"                      NAME@KEY=VALUE[@KEY=VALUE]... (';' in VALUE stands\n"
"                      for ','), and a variant of the measured component\n"
"                      is measured on the same processes at the same\n"
"                      moments: shmcico,shmcico@shmcico_single_copy=off\n"
"  --sizes LIST        message sizes m in bytes, K/M/G suffixes allowed\n"
"                      (default powers of two from 8 to 4M); bcast moves m\n"
"                      bytes in all, scatter, gather, allgather m bytes per\n"
"                      process block\n"
"  --min-size N        first size of the default series N, 2N, 4N, ...\n"
"                      (default 8)\n"
"  --max-size N        largest size of that series (default 4M)\n"
"  --counts MODE       counts of the v-variants: uniform (m each, default) or\n"
"                      irregular[:SEED] (drawn in [0, 2m], the same on all\n"
"                      ranks; default seed 1); displacements packed\n"
"  --root R            root of the rooted operations: a rank (default 0) or\n"
"                      'shift' (launch i uses root i % P, alike for all\n"
"                      components)\n"
"  --cache MODE        cold (default: a fresh buffer region every launch,\n"
"                      cycling through >= 4 launches and >= the cold pool)\n"
"                      or warm (the same buffers every launch)\n"
"  --cold-pool N       bytes a rank cycles through with --cache cold (default\n"
"                      64M, as IMB's -off_cache; a last-level cache larger\n"
"                      than the pools of a node's ranks holds them: give more\n"
"                      to take buffers from memory there)\n"
"  --wait-ns D         D of the waitup pattern (default 2000)\n"
"\n",
    /* how to measure */
"How to measure:\n"
"  --timer T           wtime (MPI_Wtime, default) or tsc (rdtsc calibrated\n"
"                      against CLOCK_MONOTONIC; x86-64 only)\n"
"  --sync METHOD       clock offsets: linear (rank 0 ping-pongs with each rank,\n"
"                      default) or ring (rank i with rank i-1, offsets add up)\n"
"  --sync-rounds K     ping-pongs per link, the fastest one counts (default 100)\n"
"  --late-ns N         a launch is valid when every rank starts within N ns\n"
"                      of the schedule (default 500), or ...\n"
"  --late-pct P        ... within P percent of the launch's time where that\n"
"                      is more (default 1; 0: --late-ns alone)\n"
"  --trim G            percent of extreme times dropped, half at each end\n"
"                      (default 10)\n"
"  --rel-error X       stop a point at this relative standard error\n"
"                      (default 0.02) ...\n"
"  --min-launches N    ... once each component has N valid launches\n"
"                      (default 30)\n"
"  --max-launches N    stop a point at N launches per component (default 2000)\n"
"  --max-seconds S     stop a point after S seconds of timed stages (default 3;\n"
"                      buffers, clock sync and checks before them not counted;\n"
"                      a point runs on until each component has a valid\n"
"                      launch, for at most 16 stages and 2 s more)\n"
"\n",
    /* output */
"Output:\n"
"  --csv FILE          also write one row per (op, size, component) to FILE\n"
"  --quiet             no progress lines on stderr\n"
"  -h, --help          this text\n"
"\n"
"The table gives, per operation and size, each component's mean +- half the\n"
"95% confidence interval, the ratio measured/baseline, the valid launches,\n"
"and for coll/shmcico how many calls it served itself (MPI_T counters\n"
"coll_shmcico_<op>_served; n/a when the counter does not exist).\n"
};

static void print_help(void)
{
    for (size_t i = 0; i < sizeof(help_sections) / sizeof(help_sections[0]); ++i) {
        fputs(help_sections[i], stdout);
    }
}

static bool fail(const char *fmt, ...)
{
    va_list ap;

    if (0 == bench_rank) {
        fprintf(stderr, "shmcico-bench: ");
        va_start(ap, fmt);
        vfprintf(stderr, fmt, ap);
        va_end(ap);
        fprintf(stderr, " (see --help)\n");
    }
    return false;
}

static bool parse_size(const char *option, const char *text, size_t *bytes)
{
    char *end;
    unsigned long long value;
    int shift = 0;

    errno = 0;
    value = strtoull(text, &end, 10);
    switch (toupper((unsigned char) *end)) {
    case 'K': shift = 10; ++end; break;
    case 'M': shift = 20; ++end; break;
    case 'G': shift = 30; ++end; break;
    }
    if (end == text || !isdigit((unsigned char) text[0]) || 0 != errno
        || ('\0' != *end && 0 != strcmp(end, "B")) || 0 == value
        || value > (unsigned long long) (INT_MAX >> shift)) {
        return fail("%s: '%s' is not a size from 1 to 2G-1 bytes (K, M, G allowed)",
                    option, text);
    }
    *bytes = (size_t) value << shift;
    return true;
}

static bool parse_long(const char *option, const char *text, long min, long max,
                       long *value)
{
    char *end;

    errno = 0;
    *value = strtol(text, &end, 10);
    if (end == text || '\0' != *end || 0 != errno || *value < min || *value > max) {
        return fail("%s: '%s' is not an integer from %ld to %ld", option, text,
                    min, max);
    }
    return true;
}

static bool parse_int(const char *option, const char *text, long min, long max,
                      int *value)
{
    long v;

    if (!parse_long(option, text, min, max, &v)) {
        return false;
    }
    *value = (int) v;
    return true;
}

/* A number in [min, max), or (min, max) when min is excluded. */
static bool parse_double(const char *option, const char *text, double min,
                         bool min_excluded, double max, double *value)
{
    char *end;

    errno = 0;
    *value = strtod(text, &end);
    if (end == text || '\0' != *end || 0 != errno || !isfinite(*value)
        || *value < min || (min_excluded && *value == min) || *value >= max) {
        return fail("%s: '%s' is not a number in %s%g, %g)", option, text,
                    min_excluded ? "(" : "[", min, max);
    }
    return true;
}

static bool parse_choice(const char *option, const char *text,
                         const char *first, const char *second, int *value)
{
    if (0 == strcmp(text, first)) {
        *value = 0;
    } else if (0 == strcmp(text, second)) {
        *value = 1;
    } else {
        return fail("%s: '%s' is neither %s nor %s", option, text, first, second);
    }
    return true;
}

static void add_op(bench_options_t *opt, int id)
{
    for (int i = 0; i < opt->nops; ++i) {
        if (opt->ops[i] == id) {
            return;
        }
    }
    opt->ops[opt->nops++] = id;
}

static bool parse_ops(char *list, bench_options_t *opt)
{
    opt->nops = 0;
    for (char *name = strtok(list, ","); NULL != name; name = strtok(NULL, ",")) {
        int id = bench_op_find(name);

        if (0 == strcmp(name, "all")) {
            for (id = 0; id < BENCH_OP_COUNT; ++id) {
                add_op(opt, id);
            }
        } else if (id >= 0) {
            add_op(opt, id);
        } else {
            return fail("--ops: unknown operation '%s'", name);
        }
    }
    return opt->nops > 0 || fail("--ops: no operation given");
}

/* NAME[@KEY=VALUE]...: a name that fits bench_component_t's base, and
 * hints each with a key and of a length bench_main.c takes */
static bool parse_component(const char *spec)
{
    size_t name = strcspn(spec, "@");

    if (0 == name || name >= BENCH_NAME_MAX) {
        return fail("--components: '%s': a component's name has 1 to %d characters", spec,
                    BENCH_NAME_MAX - 1);
    }
    for (const char *at = strchr(spec, '@'); NULL != at; at = strchr(at + 1, '@')) {
        size_t len = strcspn(at + 1, "@"), key = strcspn(at + 1, "=@");
        if (0 == key || key == len || len >= BENCH_HINT_MAX) {
            return fail("--components: '%s': each hint is KEY=VALUE, at most %d characters",
                        spec, BENCH_HINT_MAX - 1);
        }
    }
    return true;
}

static bool parse_components(char *list, bench_options_t *opt)
{
    opt->ncomponents = 0;
    for (char *name = strtok(list, ","); NULL != name; name = strtok(NULL, ",")) {
        if (opt->ncomponents == BENCH_MAX_COMPONENTS) {
            return fail("--components: at most %d components", BENCH_MAX_COMPONENTS);
        }
        if (!parse_component(name)) {
            return false;
        }
        for (int c = 0; c < opt->ncomponents; ++c) {
            if (0 == strcmp(opt->components[c], name)) {
                return fail("--components: '%s' given twice", name);
            }
        }
        opt->components[opt->ncomponents++] = name;
    }
    return opt->ncomponents > 0 || fail("--components: no component given");
}

static int compare_sizes(const void *a, const void *b)
{
    size_t x = *(const size_t *) a, y = *(const size_t *) b;

    return (x > y) - (x < y);
}

static bool parse_sizes(char *list, bench_options_t *opt)
{
    opt->nsizes = 0;
    for (char *text = strtok(list, ","); NULL != text; text = strtok(NULL, ",")) {
        if (opt->nsizes == BENCH_MAX_SIZES) {
            return fail("--sizes: at most %d sizes", BENCH_MAX_SIZES);
        }
        if (!parse_size("--sizes", text, &opt->sizes[opt->nsizes++])) {
            return false;
        }
    }
    if (0 == opt->nsizes) {
        return fail("--sizes: no size given");
    }
    qsort(opt->sizes, opt->nsizes, sizeof(size_t), compare_sizes);
    return true;
}

static void powers_of_two(bench_options_t *opt, size_t min, size_t max)
{
    opt->nsizes = 0;
    for (size_t m = min; m <= max && opt->nsizes < BENCH_MAX_SIZES; m *= 2) {
        opt->sizes[opt->nsizes++] = m;
    }
}

static bool parse_root(const char *text, bench_options_t *opt)
{
    if (0 == strcmp(text, "shift")) {
        opt->root = BENCH_ROOT_SHIFT;
        return true;
    }
    return parse_int("--root", text, 0, INT_MAX, &opt->root);
}

static bool parse_counts(char *text, bench_options_t *opt)
{
    char *seed = strchr(text, ':');
    long long value;
    char *end;

    if (NULL != seed) {
        *seed++ = '\0';
    }
    if (0 == strcmp(text, "uniform") && NULL == seed) {
        opt->counts = BENCH_COUNTS_UNIFORM;
        return true;
    }
    if (0 != strcmp(text, "irregular")) {
        return fail("--counts: expected uniform or irregular[:SEED]");
    }
    opt->counts = BENCH_COUNTS_IRREGULAR;
    if (NULL != seed) {
        errno = 0;
        value = strtoll(seed, &end, 10);
        if (end == seed || '\0' != *end || 0 != errno || value < 0) {
            return fail("--counts: '%s' is not a seed (an integer >= 0)", seed);
        }
        opt->counts_seed = (uint64_t) value;
    }
    return true;
}

static void set_defaults(bench_options_t *opt)
{
    memset(opt, 0, sizeof(*opt));
    for (int id = 0; id < BENCH_OP_COUNT; ++id) {
        add_op(opt, id);
    }
    opt->components[0] = "shmcico";
    opt->components[1] = "tuned";
    opt->ncomponents = 2;
    opt->timer = BENCH_TIMER_WTIME;
    opt->sync = BENCH_SYNC_LINEAR;
    opt->sync_rounds = 100;
    opt->late_s = 500e-9;
    opt->late_share = BENCH_LATE_SHARE;
    opt->trim_pct = 10;
    opt->rel_error = 0.02;
    opt->min_launches = 30;
    opt->max_launches = 2000;
    opt->max_seconds = 3;
    opt->cache = BENCH_CACHE_COLD;
    opt->cold_pool = (size_t) 64 << 20;
    opt->root = 0;
    opt->counts = BENCH_COUNTS_UNIFORM;
    opt->counts_seed = 1;
    opt->wait_s = 2000e-9;
}

/* the options whose value is one of two words */
static bool parse_two_words(int code, char *arg, bench_options_t *opt)
{
    int choice = 0;

    switch (code) {
    case OPT_SYNC:
        if (!parse_choice("--sync", arg, "linear", "ring", &choice)) {
            return false;
        }
        opt->sync = choice ? BENCH_SYNC_RING : BENCH_SYNC_LINEAR;
        return true;
    case OPT_TIMER:
        if (!parse_choice("--timer", arg, "wtime", "tsc", &choice)) {
            return false;
        }
        if (choice && !BENCH_HAVE_TSC) {
            return fail("--timer tsc needs rdtsc (x86-64); use --timer wtime here");
        }
        opt->timer = choice ? BENCH_TIMER_TSC : BENCH_TIMER_WTIME;
        return true;
    default:                        /* OPT_CACHE */
        if (!parse_choice("--cache", arg, "cold", "warm", &choice)) {
            return false;
        }
        opt->cache = choice ? BENCH_CACHE_WARM : BENCH_CACHE_COLD;
        return true;
    }
}

/* the options given in ns or per cent, kept in seconds or as a share */
static bool parse_scaled(int code, char *arg, bench_options_t *opt)
{
    double v;

    switch (code) {
    case OPT_LATE_NS:
        if (!parse_double("--late-ns", arg, 0, false, 1e9, &v)) {
            return false;
        }
        opt->late_s = v * 1e-9;
        return true;
    case OPT_LATE_PCT:
        if (!parse_double("--late-pct", arg, 0, false, 100, &v)) {
            return false;
        }
        opt->late_share = v / 100;
        return true;
    default:                        /* OPT_WAIT_NS */
        if (!parse_double("--wait-ns", arg, 0, false, 1e9, &v)) {
            return false;
        }
        opt->wait_s = v * 1e-9;
        return true;
    }
}

/* word: the command-line word being parsed, for messages. */
/* word: the command-line word being parsed, for messages. */
static bool parse_one(int code, char *arg, const char *word,
                      bench_options_t *opt, size_t *min_size, size_t *max_size)
{
    switch (code) {
    case OPT_OPS: return parse_ops(arg, opt);
    case OPT_COMPONENTS: return parse_components(arg, opt);
    case OPT_SIZES: return parse_sizes(arg, opt);
    case OPT_MIN_SIZE: return parse_size("--min-size", arg, min_size);
    case OPT_MAX_SIZE: return parse_size("--max-size", arg, max_size);
    case OPT_SYNC:
    case OPT_TIMER:
    case OPT_CACHE: return parse_two_words(code, arg, opt);
    case OPT_SYNC_ROUNDS:
        return parse_int("--sync-rounds", arg, 1, 1000000, &opt->sync_rounds);
    case OPT_LATE_NS:
    case OPT_LATE_PCT:
    case OPT_WAIT_NS: return parse_scaled(code, arg, opt);
    case OPT_TRIM:
        return parse_double("--trim", arg, 0, false, 100, &opt->trim_pct);
    case OPT_REL_ERROR:
        return parse_double("--rel-error", arg, 0, true, 1, &opt->rel_error);
    case OPT_MIN_LAUNCHES:
        return parse_int("--min-launches", arg, 2, 10000000, &opt->min_launches);
    case OPT_MAX_LAUNCHES:
        return parse_int("--max-launches", arg, 2, 10000000, &opt->max_launches);
    case OPT_MAX_SECONDS:
        return parse_double("--max-seconds", arg, 0, true, 86400, &opt->max_seconds);
    case OPT_COLD_POOL:
        return parse_size("--cold-pool", arg, &opt->cold_pool);
    case OPT_ROOT: return parse_root(arg, opt);
    case OPT_COUNTS: return parse_counts(arg, opt);
    case OPT_CSV: opt->csv = arg; return true;
    case OPT_QUIET: opt->quiet = true; return true;
    default:
        return fail("unknown option or missing argument: '%s'", word);
    }
}

/* Checks that need the number of processes, or several options. */
static bool validate(bench_options_t *opt, bool sizes_given, size_t min_size,
                     size_t max_size, int size)
{
    size_t largest, factor = BENCH_COUNTS_IRREGULAR == opt->counts ? 2 : 1;

    if (sizes_given && (min_size || max_size)) {
        return fail("--sizes excludes --min-size and --max-size");
    }
    if (!sizes_given) {
        min_size = min_size ? min_size : 8;
        max_size = max_size ? max_size : 4 << 20;
        if (min_size > max_size) {
            return fail("--min-size %zu is above --max-size %zu", min_size, max_size);
        }
        powers_of_two(opt, min_size, max_size);
    }
    largest = opt->sizes[opt->nsizes - 1];
    if (largest * factor * (size_t) size > INT_MAX) {
        return fail("size %zu: %d blocks of up to %zu bytes do not fit an int count",
                    largest, size, largest * factor);
    }
    if (opt->root >= size) {
        return fail("--root %d: there are only %d processes", opt->root, size);
    }
    if (opt->max_launches < opt->min_launches) {
        return fail("--max-launches %d is below --min-launches %d",
                    opt->max_launches, opt->min_launches);
    }
    return true;
}

int bench_parse_options(int argc, char **argv, bench_options_t *opt, int size, int rank)
{
    size_t min_size = 0, max_size = 0;
    bool sizes_given = false;
    int code;

    bench_rank = rank;
    set_defaults(opt);
    opterr = 0;
    while (-1 != (code = getopt_long(argc, argv, ":h", long_options, NULL))) {
        if (OPT_HELP == code) {
            if (0 == bench_rank) {
                print_help();
            }
            return 1;
        }
        sizes_given |= OPT_SIZES == code;
        if (!parse_one(code, optarg, argv[optind - 1], opt, &min_size, &max_size)) {
            return 2;
        }
    }
    if (optind < argc) {
        fail("unexpected argument '%s'", argv[optind]);
        return 2;
    }
    return validate(opt, sizes_given, min_size, max_size, size) ? 0 : 2;
}
