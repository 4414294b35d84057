/* hipport check tune: the sweeps of a bundle's record runs shown and kept. */
#ifndef HIPPORT_CMD_CHECK_TUNE_H
#define HIPPORT_CMD_CHECK_TUNE_H

/* Each tune.json a bundle's record runs left (bundle/work/record/NAME/tune/):
 * its time table printed, its kernels recorded in the session for
 * TRITON-009 and the fixes it proposes named. The worse of code and its own:
 * CMD_EXIT_USAGE for a tune.json that does not read or speaks of a file the
 * bundle has not (nothing of it recorded). */
int cmd_check_tune_bundle(const char *bundle, int code);

/* The analyzer's loader of tuned kernels (an_tuned_set_loader): those the
 * session of the repository holding fs_path keeps of that file. */
struct an_tuned_set;
int cmd_check_tuned_of(struct an_tuned_set *out, const char *fs_path);

#endif
