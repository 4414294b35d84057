/* The command table, in alphabetical order. */
#include "cmd/cmd.h"
#include "cmd/doctor_binary.h"

const cmd_builtin cmd_builtins[] = {
	{ .name = "apply", .run = cmd_apply,
	  .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_UNDO | CMD_OPT_FIX | CMD_OPT_ANALYZE | CMD_OPT_ARCH,
	  .usage = "apply [PATH...] [--fix=ID,...|all] [--undo]",
	  .summary = "Write the proposals into the working tree, each file atomically; the originals are kept\n"
		     "under .git/hipport/backup/ (.hipport-backup/ outside a repository). A file changed since\n"
		     "it was read is not overwritten. --undo restores the files apply wrote, unless they were\n"
		     "edited since." },
	{ .name = "check", .run = cmd_check,
	  .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_CHECK | CMD_OPT_FIX | CMD_OPT_ARCH | CMD_OPT_ANALYZE,
	  .usage = "check [run] [PATH...] [--fix=ID,...|all] [--record] [--stale]\n"
		   "       check draft FILE... [--from-record DIR]\n"
		   "       check bundle DIR [PATH...] [--slurm] [--tune] [--stale]\n"
		   "       check import FILE [--record]\n"
		   "       check compare REF PORT [REF2]\n"
		   "       check submit DIR\n"
		   "       check tune [PATH...]",
	  .summary = "Kernel correctness checks (docs/checks.md), a verb each (the options of the same names\n"
		     "still work: --draft-spec, --bundle DIR, --import FILE, --compare, --submit DIR). 'draft'\n"
		     "drafts a spec per kernel of the named files into .hipport/checks/. 'bundle DIR' writes a\n"
		     "self-contained bundle: the program's files as each side has them, a harness per spec and\n"
		     "the programs to record; its run.sh builds each from the original (nvcc) and the port\n"
		     "(hipcc, or nvcc through a compatibility header), runs and compares them, and writes\n"
		     "results.json; 'import' records such a file. 'run' (or no verb) runs the bundle here,\n"
		     "records and prints the results, then check.command; exit 1 when a check fails.\n"
		     "'compare' lines up two record runs. --record stores the reference outputs under\n"
		     ".hipport/golden/. --fix takes fixes into the ports of files not under review, as\n"
		     "translate does. bundle DIR --slurm also writes Slurm job arrays (DIR/slurm/, [slurm] of\n"
		     ".hipport/config); 'submit DIR' submits them with sbatch, follows them, merges their\n"
		     "results into DIR/results.json and records it; run it again after an interruption, or to\n"
		     "re-submit what did not finish. 'tune' (--tune, also with bundle) sweeps the launch options\n"
		     "of the port's Triton kernels in its record runs, checks and times each config; the import\n"
		     "prints the tables and the fastest correct config becomes TRITON-009's fix. A path named\n"
		     "like a verb is given as ./NAME." },
	{ .name = "commit", .run = cmd_commit,
	  .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_ANALYZE | CMD_OPT_ARCH | CMD_OPT_COMMIT,
	  .usage = "commit [PATH...] [-m SUMMARY] [--branch NAME] [--force] [--offload-arch=gfxNNN]",
	  .summary = "Commit the reviewed files that are validated: every hunk decided, the file holding what\n"
		     "the decisions wrote, its compile check for the offload arch and every kernel check of it\n"
		     "passed on exactly that content. Otherwise nothing is committed and exit 1 says why,\n"
		     "unless --force (said in the message). libgit2 commits those files only; hooks do not run." },
	{ .name = "diff", .run = cmd_diff,
	  .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_FIX | CMD_OPT_ANALYZE | CMD_OPT_ARCH,
	  .usage = "diff [PATH...] [--fix=ID,...|all]",
	  .summary = "Print unified diffs of the proposed ports (directories are walked: tracked and\n"
		     "untracked, not ignored, files inside a git repository)." },
	{ .name = "doctor", .run = cmd_doctor, .options = CMD_OPT_FORMAT | CMD_OPT_ARCH | CMD_OPT_BINARY,
	  .usage = "doctor [--offload-arch=gfxNNN] [--format text|json]\n"
		   "       doctor --binary FILE... [--gpu ARCH]... [--format text|json]",
	  .summary = "Report the toolchains (hipcc and its HIP, the clang behind it and the archs it knows,\n"
		     "nvcc and its CUDA, rocminfo), the GPUs and their archs, the environment variables that\n"
		     "choose code for a GPU, the offload arch (--offload-arch, else check.offloadArch of\n"
		     ".hipport/config, else the AMD GPU found), and ENV findings with advice (docs/doctor.md).\n"
		     "--binary lists the code objects of built files (HIP executables, shared libraries such as\n"
		     "PyTorch extensions, objects, .hsaco code objects) with their target ids, and says which one\n"
		     "each GPU (--gpu, else those found) loads under HIP_VISIBLE_DEVICES, HSA_OVERRIDE_GFX_VERSION\n"
		     "and HSA_XNACK, and which archs of PYTORCH_ROCM_ARCH are missing.\n"
		     "Exit 1 if a finding is an error (--binary: a file no GPU in use can run); 2 for bad\n"
		     "options or a file that is not a HIP binary." },
	{ .name = "explain", .run = cmd_explain, .options = 0,
	  .usage = "explain [ID...]",
	  .summary = "Print the catalog entry of a finding id (what it means on AMD GPUs, what to do),\n"
		     "or list every id with its severity." },
	{ .name = "query", .run = cmd_query, .options = CMD_OPT_PORT | CMD_OPT_FORMAT,
	  .usage = "query NAME... [--format text|json]",
	  .summary = "Look up CUDA names (functions, types, headers) in the mapping tables: the HIP name,\n"
		     "the HIP versions that added, deprecated or removed it, the ROC alternative, or\n"
		     "\"unsupported\". A HIP name is looked up in reverse. Exit 1 if a name is unknown." },
	{ .name = "review", .run = cmd_review,
	  .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_ANALYZE | CMD_OPT_SCRIPT | CMD_OPT_ARCH,
	  .usage = "review [PATH...] [--script FILE [--size WxH]]",
	  .summary = "Review the proposed ports hunk by hunk in the terminal: the files on the left, the\n"
		     "diff side by side on the right. Accepting writes the file at once; every decision is\n"
		     "saved first (docs/review.md). --script reads keys and :save-screen PATH from FILE." },
	{ .name = "scan", .run = cmd_scan,
	  .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_FORMAT | CMD_OPT_FAIL | CMD_OPT_ANALYZE | CMD_OPT_NO_ANALYSIS |
		     CMD_OPT_ARCH,
	  .usage = "scan [PATH...] [--format text|json|sarif] [--fail-on error|warning|note]",
	  .summary = "Report, per file and in total, the references converted and left, the lines changed,\n"
		     "and the findings with the fixes they have; change nothing. JSON is documented in\n"
		     "docs/scan-json.md, the findings in docs/findings.md." },
	{ .name = "status", .run = cmd_status, .options = CMD_OPT_PORT | CMD_OPT_WALK | CMD_OPT_FORMAT | CMD_OPT_ANALYZE,
	  .usage = "status [PATH...] [--format text|json]",
	  .summary = "Print the review session: for each file (CUDA, Triton, build file) its state (pending,\n"
		     "partial, accepted, committed, stale), its hunks by decision (accepted, rejected,\n"
		     "edited, pending) and its findings.\n"
		     "The session lives in .git/hipport/session.json; docs/review.md describes it." },
	{ .name = "sync", .run = cmd_sync, .options = CMD_OPT_PORT | CMD_OPT_SYNC | CMD_OPT_ANALYZE,
	  .usage = "sync [--from OLD] --to NEW\n"
		   "       sync remove|keep PATH...",
	  .summary = "Re-port after the CUDA code changed upstream (docs/sync.md). For each file changed between\n"
		     "OLD (the Ported-from trailer of the port's commits, or --from) and NEW: a file the port\n"
		     "left alone takes upstream's; a ported one gets a three-way merge of the proposal for OLD,\n"
		     "the committed port and the proposal for NEW, into the review: hunks upstream left alone\n"
		     "keep their decisions, hand edits are kept byte for byte, changed hunks are proposed, and\n"
		     "where both changed a conflict waits in the review. New files are proposed fresh. A ported\n"
		     "file upstream removed waits for 'sync remove' or 'sync keep'. Nothing in the working tree\n"
		     "is overwritten: its files must hold the port's commit. A killed sync resumes when run\n"
		     "again; hipport commit then commits it, with Synced-from: OLD..NEW." },
	{ .name = "translate", .run = cmd_translate,
	  .options = CMD_OPT_PORT | CMD_OPT_OUTPUT | CMD_OPT_FIX | CMD_OPT_ANALYZE | CMD_OPT_ARCH,
	  .usage = "translate FILE [-o OUT] [--fix=ID,...|all] [options]",
	  .summary = "Print the proposed HIP source of one CUDA file (or write it atomically to OUT).\n"
		     "References left unconverted are reported on standard error. --fix takes the fixes of\n"
		     "those finding ids into the port (see hipport scan for the fixes each finding has).\n"
		     "CMakeLists.txt, *.cmake and Makefiles get a HIP build (docs/build-files.md), for the\n"
		     "--offload-arch given, else gfx90a." },
	{ .name = NULL }
};
