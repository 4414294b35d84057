/* Kernel checks on Slurm, the pure parts: [slurm] settings, array tasks and
 * their --array lists, the sbatch script (golden text), slurm/jobs, the
 * scheduler's words (sacct, scontrol, squeue) as task states and messages,
 * and the merge of fragments into results.json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <git2.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/bundle/bundle.h"
#include "check/slurm/slurm.h"
#include "util/error.h"
#include "util/file.h"

#include "tmpdir.h"

static void test_config_defaults(void **state)
{
	slurm_config cfg;

	(void)state;
	assert_int_equal(slurm_config_read(&cfg, tmp_path("no-such-config")), 0);
	assert_int_equal(cfg.group_size, SLURM_GROUP_SIZE);
	assert_int_equal(cfg.gpus_per_task, 1);
	assert_int_equal(cfg.ntargets, 0);
	assert_null(cfg.partition);
	slurm_config_dispose(&cfg);
}

static void test_config(void **state)
{
	slurm_config cfg;

	(void)state;
	write_text("cfg/config", "[check]\n\tslurmHost = login1\n"
				 "[slurm]\n\tpartition = mi300\n\tnvidiaPartition = h100\n\taccount = proj42\n"
				 "\tqos = normal\n\textra = --constraint=mi300x\n\textra = --exclusive\n"
				 "\tsetup = module load rocm/6.2\n\tsetup = module load cuda/12.4\n"
				 "\ttargets = gfx942, gfx90a nvidia-proxy\n\tgroupSize = 8\n\tgpusPerTask = 0\n"
				 "\tbuildSeconds = 120\n\tpollSeconds = 5\n");
	assert_int_equal(slurm_config_read(&cfg, tmp_path("cfg/config")), 0);
	assert_string_equal(cfg.partition, "mi300");
	assert_string_equal(cfg.nvidia_partition, "h100");
	assert_string_equal(cfg.account, "proj42");
	assert_string_equal(cfg.qos, "normal");
	assert_string_equal(cfg.host, "login1");
	assert_int_equal(cfg.nextra, 2);
	assert_string_equal(cfg.extra[1], "--exclusive");
	assert_int_equal(cfg.nsetup, 2);
	assert_string_equal(cfg.setup[0], "module load rocm/6.2");
	assert_int_equal(cfg.ntargets, 3);
	assert_string_equal(cfg.targets[0], "gfx942");
	assert_string_equal(cfg.targets[2], "nvidia-proxy");
	assert_int_equal(cfg.group_size, 8);
	assert_int_equal(cfg.gpus_per_task, 0);
	assert_int_equal(cfg.build_seconds, 120);
	assert_int_equal(cfg.poll_seconds, 5);
	slurm_config_dispose(&cfg);
}

static void expect_bad(const char *text, const char *message)
{
	slurm_config cfg;

	write_text("cfg/bad", text);
	assert_int_equal(slurm_config_read(&cfg, tmp_path("cfg/bad")), UTIL_EINPUT);
	if (!strstr(util_error_last(), message) || !strstr(util_error_last(), "cfg/bad"))
		fail_msg("'%s' does not say '%s'", util_error_last(), message);
}

static void test_config_bad(void **state)
{
	(void)state;
	expect_bad("[slurm]\n\tgroupSize = 0\n", "slurm.groupSize must be a whole number from 1");
	expect_bad("[slurm]\n\tgroupSize = many\n", "slurm.groupSize");
	expect_bad("[slurm]\n\tgpusPerTask = -1\n", "slurm.gpusPerTask");
	expect_bad("[slurm]\n\ttargets = gfx90a sm_90\n", "'sm_90' is not an offload arch");
	expect_bad("[slurm]\n\tpartition = \"two words\"\n", "slurm.partition: 'two words' must be one word");
	expect_bad("[slurm]\n\textra = constraint=x\n", "slurm.extra: 'constraint=x' is not an sbatch option");
	expect_bad("[slurm\n", "cfg/bad");
}

static void test_tasks(void **state)
{
	size_t from, to, tasks[] = { 0, 1, 2, 3, 5, 7, 8 }, *parsed, n;
	util_buf b = UTIL_BUF_INIT;

	(void)state;
	assert_int_equal(slurm_task_count(10, 4), 3);
	assert_int_equal(slurm_task_count(8, 4), 2);
	assert_int_equal(slurm_task_count(0, 4), 0);
	assert_int_equal(slurm_task_items(&from, &to, 2, 4, 10), 1);
	assert_int_equal(from, 8);
	assert_int_equal(to, 9);
	assert_int_equal(slurm_task_items(&from, &to, 1, 4, 10), 1);
	assert_int_equal(from, 4);
	assert_int_equal(to, 7);
	assert_int_equal(slurm_task_items(&from, &to, 3, 4, 10), 0);
	slurm_array_range(&b, tasks, 7);
	assert_string_equal(b.ptr, "0-3,5,7-8");
	util_buf_clear(&b);
	slurm_array_range(&b, tasks + 4, 1);
	assert_string_equal(b.ptr, "5");
	util_buf_dispose(&b);
	assert_int_equal(slurm_array_parse(&parsed, &n, "0-3,5,7-8%2"), 0);
	assert_int_equal(n, 7);
	assert_memory_equal(parsed, tasks, sizeof(tasks));
	free(parsed);
	assert_int_equal(slurm_array_parse(&parsed, &n, "1-7:3"), 0);
	assert_int_equal(n, 3);
	assert_int_equal(parsed[2], 7);
	free(parsed);
	assert_int_equal(slurm_array_parse(&parsed, &n, "3-1"), UTIL_EINPUT);
	assert_int_equal(slurm_array_parse(&parsed, &n, "x"), UTIL_EINPUT);
	assert_int_equal(slurm_array_parse(&parsed, &n, ""), UTIL_EINPUT);
}

/* A bundle of three checks and one record run, in tmp/dir. */
static void make_bundle(const char *dir)
{
	char name[256];

	snprintf(name, sizeof(name), "%s/bundle.conf", dir);
	write_text(name, "BUNDLE_ID=0123abcd\nINCLUDES='include'\n");
	snprintf(name, sizeof(name), "%s/checks.list", dir);
	write_text(name, "a.k1\tsrc/a.cu\tk1\t60\t1111111111111111111111111111111111111111\t"
			 "2222222222222222222222222222222222222222\n"
			 "a.k2\tsrc/a.cu\tk2\t30\t1111111111111111111111111111111111111111\t"
			 "2222222222222222222222222222222222222222\n"
			 "b.k3\tsrc/b.cu\tns::k3\t60\t3333333333333333333333333333333333333333\t"
			 "4444444444444444444444444444444444444444\n");
	snprintf(name, sizeof(name), "%s/records.list", dir);
	write_text(name, "src/app\tmake\t./app\n");
}

static const char golden_port[] =
	"#!/bin/sh\n"
	"# hipport bundle 0123abcd: the port's checks for gfx942, each compared with the reference\n"
	"# task of the same number (slurm/refs), which it runs after.\n"
	"# An array task per group of up to 2 of the bundle's 4 items (docs/checks.md, \"Slurm\").\n"
	"#SBATCH --job-name=hipport-gfx942\n"
	"#SBATCH --array=0-1\n"
	"#SBATCH --ntasks=1\n"
	"#SBATCH --gpus-per-task=1\n"
	"#SBATCH --time=20\n"
	"#SBATCH --partition=mi300\n"
	"#SBATCH --account=proj42\n"
	"#SBATCH --output=slurm/log/gfx942-%a.out\n"
	"#SBATCH --constraint=mi300x\n"
	"module load rocm/6.2\n"
	"task=${SLURM_ARRAY_TASK_ID:?hipport: not a Slurm array task}\n"
	"from=$((task * 2))\n"
	"to=$((from + 1))\n"
	"[ \"$to\" -lt 4 ] || to=3\n"
	"mkdir -p slurm/fragments/gfx942 slurm/refs slurm/work/gfx942 || exit 2\n"
	"HIPPORT_PHASE=port PORT_PLATFORM=amd OFFLOAD_ARCH=gfx942 HIPPORT_RECORD_PORT=port HIPPORT_REFS=slurm/refs "
	"HIPPORT_ITEMS=$from-$to \\\n"
	"\tHIPPORT_WORK=slurm/work/gfx942/$task HIPPORT_RESULTS=slurm/fragments/gfx942/$task.json \\\n"
	"\texec sh ./run.sh\n";

static void test_plan_and_scripts(void **state)
{
	slurm_config cfg;
	slurm_plan plan, loaded;
	util_buf text = UTIL_BUF_INIT;
	char dir[4200];

	(void)state;
	make_bundle("plan-bundle");
	snprintf(dir, sizeof(dir), "%s/plan-bundle", tmp);
	write_text("cfg/plan", "[slurm]\n\tpartition = mi300\n\tnvidiaPartition = h100\n\taccount = proj42\n"
			       "\textra = --constraint=mi300x\n\tsetup = module load rocm/6.2\n"
			       "\ttargets = gfx942 gfx90a\n\tgroupSize = 2\n");
	assert_int_equal(slurm_config_read(&cfg, tmp_path("cfg/plan")), 0);
	if (slurm_plan_make(&plan, dir, &cfg, "gfx90a") < 0)
		fail_msg("%s", util_error_last());
	assert_int_equal(plan.nitems, 4);
	assert_int_equal(plan.nchecks, 3);
	assert_int_equal(plan.ntasks, 2);
	assert_true(plan.items[3].record);
	assert_string_equal(plan.items[2].kernel, "ns::k3");
	assert_int_equal(plan.items[1].timeout, 30);
	assert_string_equal(plan.bundle_id, "0123abcd");
	/* task 1: a check (300 + 180 s) and a record run (600 + 600 s): 1680 s, 28 min, +1 */
	assert_int_equal(slurm_time_minutes(&plan, 300), 29);
	/* the golden text, with 2 minutes a build: task 1, 120 + 180 + 240 + 600 s: 19 min, +1 */
	cfg.build_seconds = 120;
	assert_int_equal(slurm_script(&text, &cfg, &plan, "gfx942"), 0);
	assert_string_equal(text.ptr, golden_port);
	util_buf_clear(&text);
	assert_int_equal(slurm_script(&text, &cfg, &plan, NULL), 0);
	assert_non_null(strstr(text.ptr, "#SBATCH --partition=h100\n"));
	assert_non_null(strstr(text.ptr, "HIPPORT_PHASE=ref HIPPORT_REFS=slurm/refs"));
	assert_non_null(strstr(text.ptr, "HIPPORT_RESULTS=slurm/fragments/ref/$task.json"));
	util_buf_clear(&text);
	assert_int_equal(slurm_script(&text, &cfg, &plan, "gfx90a"), 0);
	assert_non_null(strstr(text.ptr, "HIPPORT_RECORD_PORT=port-gfx90a "));
	util_buf_dispose(&text);
	assert_int_equal(slurm_write(dir, &cfg, &plan), 0);
	assert_int_equal(slurm_plan_load(&loaded, dir), 0);
	assert_int_equal(loaded.group_size, 2);
	assert_int_equal(loaded.ntargets, 2);
	assert_string_equal(loaded.targets[1], "gfx90a");
	assert_int_equal(loaded.ntasks, 2);
	slurm_plan_dispose(&loaded);
	slurm_plan_dispose(&plan);
	slurm_config_dispose(&cfg);
	assert_int_equal(slurm_plan_load(&loaded, tmp_path("nowhere")), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "nowhere/slurm/plan"));
}

static void test_states(void **state)
{
	slurm_states s;
	const slurm_task_state *t;
	char *message;

	(void)state;
	assert_int_equal(slurm_states_parse_sacct(&s, "12_0|COMPLETED|0:0\n12_1|CANCELLED by 1000|0:15\n"
							  "12_1.batch|CANCELLED|0:15\n12_2|TIMEOUT|0:0\n"
							  "12_[3-4]|PENDING|0:0\n13_0|NODE_FAIL|0:0\n"),
			 0);
	assert_int_equal(s.n, 6);
	t = slurm_states_find(&s, "12", 1);
	assert_non_null(t);
	assert_string_equal(t->state, "CANCELLED");
	assert_int_equal(slurm_state_judge(t, &message), SLURM_FAILED);
	assert_string_equal(message, "slurm: array task 12_1 cancelled (CANCELLED, 0:15)");
	free(message);
	assert_int_equal(slurm_state_judge(slurm_states_find(&s, "12", 2), &message), SLURM_FAILED);
	assert_non_null(strstr(message, "timed out"));
	free(message);
	assert_int_equal(slurm_state_judge(slurm_states_find(&s, "13", 0), &message), SLURM_FAILED);
	assert_non_null(strstr(message, "its node failed (NODE_FAIL"));
	free(message);
	assert_int_equal(slurm_state_judge(slurm_states_find(&s, "12", 4), &message), SLURM_ACTIVE);
	assert_int_equal(slurm_state_judge(slurm_states_find(&s, "12", 0), &message), SLURM_DONE);
	assert_int_equal(slurm_state_judge(slurm_states_find(&s, "12", 9), &message), SLURM_UNKNOWN);
	assert_null(message);
	slurm_states_dispose(&s);

	assert_int_equal(slurm_states_parse_scontrol(
				 &s, "JobId=21 ArrayJobId=20 ArrayTaskId=1 JobName=hipport-gfx90a JobState=CANCELLED "
				     "Reason=None Dependency=(null) ExitCode=0:15\n"
				     "JobId=20 ArrayJobId=20 ArrayTaskId=2-3 JobName=hipport-gfx90a JobState=PENDING "
				     "Reason=Dependency Dependency=aftercorr:19_*(unfulfilled) ExitCode=0:0\n"
				     "JobId=22 JobName=other JobState=RUNNING Reason=None\n"),
			 0);
	assert_int_equal(s.n, 3);
	t = slurm_states_find(&s, "20", 1);
	assert_int_equal(slurm_state_judge(t, &message), SLURM_FAILED);
	assert_string_equal(message, "slurm: array task 20_1 cancelled (CANCELLED, 0:15)");
	free(message);
	t = slurm_states_find(&s, "20", 3);
	assert_string_equal(t->reason, "Dependency");
	assert_int_equal(slurm_state_judge(t, &message), SLURM_ACTIVE);
	slurm_states_dispose(&s);

	assert_int_equal(slurm_states_parse_squeue(&s, "30|0|RUNNING|None\n30|1|PENDING|Resources\n31|N/A|RUNNING|None\n"),
			 0);
	assert_int_equal(s.n, 2);
	assert_string_equal(slurm_states_find(&s, "30", 1)->reason, "Resources");
	slurm_states_dispose(&s);
}

static void test_jobs(void **state)
{
	slurm_jobs jobs;

	(void)state;
	assert_int_equal(slurm_jobs_parse(&jobs, "ref 12 0-2\ngfx90a 13 0-2\n\ngfx90a 15 1\n", "jobs"), 0);
	assert_int_equal(jobs.n, 3);
	assert_string_equal(slurm_jobs_latest(&jobs, "gfx90a", 1), "15");
	assert_string_equal(slurm_jobs_latest(&jobs, "gfx90a", 2), "13");
	assert_string_equal(slurm_jobs_latest(&jobs, "ref", 0), "12");
	assert_null(slurm_jobs_latest(&jobs, "gfx942", 0));
	slurm_jobs_dispose(&jobs);
	assert_int_equal(slurm_jobs_parse(&jobs, "ref 12 0-2\ngfx90a x13 0-2\n", "DIR/slurm/jobs"), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "DIR/slurm/jobs:2: expected PHASE JOBID TASKS"));
	assert_int_equal(slurm_jobs_parse(&jobs, "ref 12 2-1\n", "jobs"), UTIL_EINPUT);
	assert_int_equal(util_file_make_parents(tmp_path("jobs/jobs")), 0);
	assert_int_equal(slurm_jobs_append(tmp_path("jobs/jobs"), "ref", "40", "0-1"), 0);
	assert_int_equal(slurm_jobs_append(tmp_path("jobs/jobs"), "gfx90a", "41", "1"), 0);
	assert_int_equal(slurm_jobs_read(&jobs, tmp_path("jobs/jobs")), 0);
	assert_int_equal(jobs.n, 2);
	assert_string_equal(slurm_jobs_latest(&jobs, "gfx90a", 1), "41");
	slurm_jobs_dispose(&jobs);
}

static void test_merge(void **state)
{
	slurm_config cfg;
	slurm_plan plan;
	char dir[4200], name[4400], *failures[4] = { NULL, "slurm: array task 13_1 cancelled (CANCELLED, 0:15)", NULL, NULL };
	json_t *root, *checks;
	json_error_t jerr;

	(void)state;
	make_bundle("merge-bundle");
	snprintf(dir, sizeof(dir), "%s/merge-bundle", tmp);
	write_text("cfg/merge", "[slurm]\n\ttargets = gfx90a gfx942\n\tgroupSize = 2\n");
	assert_int_equal(slurm_config_read(&cfg, tmp_path("cfg/merge")), 0);
	assert_int_equal(slurm_plan_make(&plan, dir, &cfg, "gfx90a"), 0);
	/* gfx90a: task 0 wrote its fragment, task 1 was cancelled; gfx942: both ran */
	snprintf(name, sizeof(name), "merge-bundle/slurm/fragments/gfx90a/0.json");
	write_text(name, "{\"schema\": \"hipport-check-results\", \"version\": 1, \"checks\": [\n"
			 "{\"name\": \"a.k1\", \"source\": \"src/a.cu\", \"status\": \"pass\", \"platform\": \"amd\"},"
			 "{\"name\": \"a.k2\", \"source\": \"src/a.cu\", \"status\": \"fail\", \"platform\": \"amd\"}]}\n");
	snprintf(name, sizeof(name), "merge-bundle/slurm/fragments/gfx942/0.json");
	write_text(name, "{\"checks\": [{\"name\": \"a.k1\", \"source\": \"src/a.cu\", \"status\": \"pass\"},"
			 "{\"name\": \"a.k2\", \"source\": \"src/a.cu\", \"status\": \"pass\"}]}\n");
	snprintf(name, sizeof(name), "merge-bundle/slurm/fragments/gfx942/1.json");
	write_text(name, "{\"checks\": [{\"name\": \"b.k3\", \"source\": \"src/b.cu\", \"status\": \"no-device\"}]}\n");
	snprintf(name, sizeof(name), "%s/results.json", dir);
	assert_int_equal(slurm_merge(name, dir, &plan, failures), 0);
	assert_non_null(root = json_load_file(name, 0, &jerr));
	assert_string_equal(json_string_value(json_object_get(root, "schema")), "hipport-check-results");
	assert_string_equal(json_string_value(json_object_get(root, "bundle")), "0123abcd");
	checks = json_object_get(root, "checks");
	assert_int_equal(json_array_size(checks), 6);
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 0), "name")), "a.k1@gfx90a");
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 2), "name")), "b.k3@gfx90a");
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 2), "status")), "error");
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 2), "message")), failures[1]);
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 2), "port_blob")),
			    "4444444444444444444444444444444444444444");
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 5), "name")), "b.k3@gfx942");
	assert_string_equal(json_string_value(json_object_get(json_array_get(checks, 5), "status")), "no-device");
	json_decref(root);
	/* a fragment that does not read is named, and results.json stays as it was */
	snprintf(name, sizeof(name), "merge-bundle/slurm/fragments/gfx942/1.json");
	write_text(name, "{\"checks\": [");
	snprintf(name, sizeof(name), "%s/results.json", dir);
	assert_int_equal(slurm_merge(name, dir, &plan, failures), UTIL_EINPUT);
	assert_non_null(strstr(util_error_last(), "fragments/gfx942/1.json: not valid JSON"));
	assert_non_null(root = json_load_file(name, 0, &jerr));
	assert_int_equal(json_array_size(json_object_get(root, "checks")), 6);
	json_decref(root);
	slurm_plan_dispose(&plan);
	slurm_config_dispose(&cfg);
}

static int setup(void **state)
{
	const char *base = getenv("HIPPORT_TEST_TMP");

	(void)state;
	git_libgit2_init();
	snprintf(tmp, sizeof(tmp), "%s/slurm-tmp-unit", base ? base : "/tmp");
	bundle_remove_tree(tmp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	git_libgit2_shutdown();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_config_defaults), cmocka_unit_test(test_config),
		cmocka_unit_test(test_config_bad),	cmocka_unit_test(test_tasks),
		cmocka_unit_test(test_plan_and_scripts), cmocka_unit_test(test_states),
		cmocka_unit_test(test_jobs),		cmocka_unit_test(test_merge),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
