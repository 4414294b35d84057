#!/usr/bin/env python3
"""Regenerates a hipify-perl script from the HIPIFY tables, for tools/bench-scan.

hipify-perl is not packaged and this machine has no network, so bench-scan
compares `hipport scan` against a script built here from the same tables
(../shared/reference/hipify-tables, HIPIFY's docs/tables) with the layout that
hipify-clang's generator (src/CUDA2HIP_Perl.cpp, `hipify-clang --perl`) gives
the real bin/hipify-perl, in every part that costs time:

  - one process per file; the whole file read at once (undef $/);
  - a first pass over the file's lines, each line tested against every
    experimental, removed and deprecated name (three hashes walked with each)
    and every unsupported name (warnUnsupportedFunctions, the HIP-only
    unsupported BLAS names, the unsupported device functions), one m/($func)/g
    per name and line;
  - simpleSubstitutions: one subst("CUDA", "HIP", "kind") call per supported,
    non-experimental table name and header, each an s/$i\\b$a\\b/$b/g over the
    whole file plus the statistics hashes it updates;
  - transformKernelLaunch (12 substitutions; called only with
    -hip-kernel-execution-syntax, as in the real script), transformCubNamespace;
  - a second pass over the lines when the file has device code or cu/CU
    names: the whitelist removed word by word, leftover cuda[A-Z] names warned;
  - countSupportedDeviceFunctions (two m//g over the whole file per supported
    device function) when the file has __global__ or __shared__;
  - transformHostFunctions (the HIP_SYMBOL argument rewrites), then the
    output written with #include "hip/hip_runtime.h" where the real one adds it.

rocSubstitutions, experimentalSubstitutions and warnRocOnlyUnsupportedFunctions
are generated (they are part of the script perl compiles) but run only with
-roc / -experimental, as in the real script.

Headers: the tables hold none; the header rows of rules/overrides.tsv stand in
for hipify-clang's include map.

usage: gen_hipify_perl.py [--tables DIR] [--overrides FILE] [-o OUT] [--counts]
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TABLES = os.path.normpath(os.path.join(ROOT, "..", "shared", "reference", "hipify-tables"))
OVERRIDES = os.path.join(ROOT, "rules", "overrides.tsv")

# The order hipify-clang merges its maps in: the first entry for a name wins.
FAMILIES = [
    ("runtime", "CUDA_Runtime_API_functions_supported_by_HIP.md"),
    ("driver", "CUDA_Driver_API_functions_supported_by_HIP.md"),
    ("complex", "cuComplex_API_supported_by_HIP.md"),
    ("device", "CUDA_Device_API_supported_by_HIP.md"),
    ("blas", "CUBLAS_API_supported_by_HIP_and_ROC.md"),
    ("rand", "CURAND_API_supported_by_HIP_and_ROC.md"),
    ("dnn", "CUDNN_API_supported_by_HIP_and_MIOPEN.md"),
    ("fft", "CUFFT_API_supported_by_HIP.md"),
    ("sparse", "CUSPARSE_API_supported_by_HIP_and_ROC.md"),
    ("solver", "CUSOLVER_API_supported_by_HIP_and_ROC.md"),
    ("cub", "CUB_API_supported_by_HIP.md"),
    ("rtc", "CUDA_RTC_API_supported_by_HIP.md"),
]

# The statistics kinds, in hipify-clang's order; simpleSubstitutions is
# grouped by them.
KINDS = ["error", "init", "version", "device", "context", "module", "memory", "virtual_memory",
         "stream_ordered_memory", "addressing", "stream", "event", "external_resource_interop",
         "stream_memory", "execution", "graph", "occupancy", "texture", "surface", "peer", "graphics",
         "interactions", "profiler", "openGL", "D3D9", "D3D10", "D3D11", "VDPAU", "EGL", "thread",
         "complex", "library", "device_library", "device_function", "device_type", "include",
         "include_cuda_main_header", "include_cuda_main_header_v2", "type", "literal", "numeric_literal",
         "define", "extern_shared", "kernel_launch"]

# Runtime and driver API sections -> statistics kind; first match wins.
SECTION_KINDS = [
    ("error", "error"), ("initialization", "init"), ("version", "version"),
    ("context", "context"), ("module", "module"), ("library management", "module"),
    ("virtual memory", "virtual_memory"), ("stream ordered", "stream_ordered_memory"),
    ("unified addressing", "addressing"), ("stream memory", "stream_memory"), ("stream", "stream"),
    ("event", "event"), ("external resource", "external_resource_interop"), ("execution", "execution"),
    ("graph management", "graph"), ("occupancy", "occupancy"), ("texture", "texture"),
    ("surface", "surface"), ("peer", "peer"), ("graphics", "graphics"), ("interactions", "interactions"),
    ("profiler", "profiler"), ("opengl", "openGL"), ("direct3d 9", "D3D9"), ("direct3d 10", "D3D10"),
    ("direct3d 11", "D3D11"), ("vdpau", "VDPAU"), ("egl", "EGL"), ("thread", "thread"),
    ("memory", "memory"), ("device", "device"),
]

# cuda[A-Z] names common in CUDA sources that are no CUDA API (hipify-clang's
# whitelist: the second pass removes each from every line before warning).
WHITELIST = sorted([
    "cudaCloverField", "cudaColorSpinorField", "cudaCpsGauge", "cudaDevice", "cudaDeviceId",
    "cudaDevice_t", "cudaDevices", "cudaDimBlock", "cudaDimGrid", "cudaEigValueSet", "cudaEigVecSet",
    "cudaFatLink", "cudaForce", "cudaForce_ex", "cudaGauge", "cudaGaugeField", "cudaGaugeTemp",
    "cudaGauge_ex", "cudaGradInput", "cudaGradOutput", "cudaGridDim", "cudaIDs", "cudaInForce",
    "cudaInGauge", "cudaInGaugeEx", "cudaInLink", "cudaInLinkEx", "cudaIndices", "cudaInput",
    "cudaLongLink", "cudaLongLinkOprod", "cudaLongLinkOprod_ex", "cudaMemcpys", "cudaMom", "cudaOprod",
    "cudaOprod_ex", "cudaOutForce", "cudaOutGauge", "cudaOutput", "cudaParam", "cudaQdpGauge",
    "cudaQuark", "cudaResult", "cudaRitzVectors", "cudaSiteLink", "cudaSpinor", "cudaSpinorOut",
    "cudaStaple", "cudaULink", "cudaUnitarizedLink",
])

# Host functions whose symbol argument is wrapped in HIP_SYMBOL (or, for the
# occupancy ones, an argument dropped): (argument index, action, CUDA names).
HOST_FUNCTIONS = [
    (0, "symbol", ["cudaMemcpyToSymbol", "cudaMemcpyToSymbolAsync"]),
    (1, "symbol", ["cudaGetSymbolAddress", "cudaGetSymbolSize", "cudaGetTextureReference",
                   "cudaGraphMemcpyNodeSetParamsToSymbol", "cudaMemcpyFromSymbol",
                   "cudaMemcpyFromSymbolAsync"]),
    (2, "symbol", ["cudaGraphExecMemcpyNodeSetParamsToSymbol", "cudaGraphMemcpyNodeSetParamsFromSymbol"]),
    (3, "drop", ["cuOccupancyMaxPotentialBlockSize", "cuOccupancyMaxPotentialBlockSizeWithFlags"]),
    (3, "symbol", ["cudaGraphExecMemcpyNodeSetParamsFromSymbol"]),
    (4, "symbol", ["cudaGraphAddMemcpyNodeToSymbol"]),
    (5, "symbol", ["cudaGraphAddMemcpyNodeFromSymbol"]),
]

# -roc translates cuBLAS only, as in the real script the layout follows.
ROC_FAMILIES = ("blas",)

HEADING_RE = re.compile(r"^##\s+\*\*\d+\.\s+(.*?)\*\*\s*$")
NAME_RE = re.compile(r"^`([^`]+)`$")
CONSTANT_RE = re.compile(r"^[A-Z0-9_]+$")
PERL_SAFE_RE = re.compile(r'^[^"$@\\\s]+$')


class Entry:
    __slots__ = ("cuda", "hip", "roc", "kind", "family", "deprecated", "removed", "experimental")


def cells_of(line):
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def read_table(path, family):
    """Yields (section, Entry) for each row of one HIPIFY table."""
    section = ""
    header = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            m = HEADING_RE.match(line)
            if m:
                section, header = m.group(1), None
                continue
            if not line.startswith("|"):
                header = None
                continue
            cells = cells_of(line)
            if cells[0].startswith("**"):
                header = []
                group = None
                for c in cells:
                    name = c.strip("*")
                    if name in ("CUDA", "HIP", "ROC", "MIOPEN"):
                        group = {"MIOPEN": "ROC"}.get(name, name)
                        header.append((group, "name"))
                    else:
                        header.append((group, name))
                continue
            if header is None or cells[0].startswith(":"):
                continue
            row = {}
            for (group, attr), c in zip(header, cells):
                m = NAME_RE.match(c)
                row[(group, attr)] = m.group(1) if (attr == "name" and m) else c
            e = Entry()
            e.cuda = row.get(("CUDA", "name"), "")
            e.hip = row.get(("HIP", "name"), "")
            e.roc = row.get(("ROC", "name"), "")
            e.family = family
            e.deprecated = row.get(("CUDA", "D"), "")
            e.removed = row.get(("CUDA", "R"), "")
            e.experimental = row.get(("HIP", "E"), "")
            e.kind = kind_of(family, section, e.cuda)
            if e.cuda:
                yield section, e


def kind_of(family, section, name):
    s = section.lower()
    if family == "device":
        return "device_function" if "function" in s else "device_type"
    if "type" in s:  # data types: enum values and macros, or types
        return "numeric_literal" if CONSTANT_RE.match(name) else "type"
    if family in ("runtime", "driver"):
        for key, kind in SECTION_KINDS:
            if key in s:
                return kind
        return "execution"
    if family == "complex":
        return "complex"
    return "library"


def load(tables, overrides):
    renames = {}    # CUDA name -> Entry: everything but the device functions
    device = {}     # CUDA name -> Entry: device functions
    for family, filename in FAMILIES:
        path = os.path.join(tables, filename)
        for _, e in read_table(path, family):
            target = device if e.kind == "device_function" else renames
            target.setdefault(e.cuda, e)
    includes = {}
    if os.path.exists(overrides):
        with open(overrides, encoding="utf-8") as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if line.startswith("#") or len(cols) < 5 or cols[3] != "header" or cols[1] == "-":
                    continue
                e = Entry()
                e.cuda, e.hip, e.roc, e.family = cols[0], cols[1], "" if cols[2] == "-" else cols[2], cols[4]
                e.deprecated = e.removed = e.experimental = ""
                if e.cuda in ("cuda.h", "cuda_runtime.h"):
                    e.kind = "include_cuda_main_header"
                elif e.cuda == "cublas_v2.h":
                    e.kind = "include_cuda_main_header_v2"
                elif e.cuda == "cublas.h":
                    e.kind = "include_cuda_main_header"
                else:
                    e.kind = "include"
                includes.setdefault(e.cuda, e)
    return renames, device, includes


def q(s):
    if not PERL_SAFE_RE.match(s):
        raise ValueError("name not safe in a Perl string: %r" % s)
    return '"%s"' % s


def generate(tables=TABLES, overrides=OVERRIDES):
    """Returns (script text, counts)."""
    renames, device, includes = load(tables, overrides)
    by_kind = {k: [] for k in KINDS}
    for e in list(renames.values()) + list(includes.values()):
        by_kind[e.kind].append(e)
    for k in by_kind:
        by_kind[k].sort(key=lambda e: e.cuda.encode())
    rev = sorted(renames.values(), key=lambda e: e.cuda.encode(), reverse=True)

    def supported(e):
        return bool(e.hip)

    def subst(e, name):
        return "    subst(%s, %s, %s);" % (q(e.cuda), q(name), q(e.kind))

    simple, experimental, roc = [], [], []
    for k in KINDS:
        for e in by_kind[k]:
            if supported(e) and not e.experimental:
                simple.append(subst(e, e.hip))
            elif supported(e) and e.experimental:
                experimental.append(subst(e, e.hip))
            if e.roc and e.family in ROC_FAMILIES and (not e.kind.startswith("include") or
                                                       e.cuda in ("cublas.h", "cublas_v2.h")):
                roc.append(subst(e, e.roc))

    deprecated = [(e.cuda, e.deprecated) for e in rev if e.deprecated]
    removed = [(e.cuda, e.removed) for e in rev if e.removed]
    experimentals = [(e.cuda, e.experimental) for e in rev if e.experimental and supported(e)]
    unsupported = [e.cuda for e in rev if not supported(e) and e.family != "blas"]
    hip_only = [e.cuda for e in rev if not supported(e) and e.family == "blas"]
    roc_only = [e.cuda for e in rev if not e.roc and e.family == "blas"]
    dev_rev = sorted(device.values(), key=lambda e: e.cuda.encode(), reverse=True)
    dev_supported = [e.cuda for e in dev_rev if supported(e)]
    dev_unsupported = [e.cuda for e in dev_rev if not supported(e)]

    host = []
    for index, action, names in HOST_FUNCTIONS:
        hip = [renames[n].hip for n in names if n in renames and renames[n].hip]
        if hip:
            host.append((index, action, hip))

    text = render(simple, experimental, roc, deprecated, removed, experimentals, unsupported, hip_only,
                  roc_only, dev_supported, dev_unsupported, host)
    counts = {
        "simpleSubstitutions": len(simple), "experimentalSubstitutions": len(experimental),
        "rocSubstitutions": len(roc), "deprecated": len(deprecated), "removed": len(removed),
        "experimental": len(experimentals), "warnUnsupportedFunctions": len(unsupported),
        "warnHipOnlyUnsupportedFunctions": len(hip_only), "warnRocOnlyUnsupportedFunctions": len(roc_only),
        "countSupportedDeviceFunctions": len(dev_supported),
        "warnUnsupportedDeviceFunctions": len(dev_unsupported), "bytes": len(text.encode()),
    }
    return text, counts


def perl_hash(name, pairs):
    body = ",\n".join("    %s => %s" % (q(k), q(v)) for k, v in pairs)
    return "my %%%s = (\n%s\n);\n\n" % (name, body)


def perl_list(names):
    return ",\n".join("        %s" % q(n) for n in names)


# The per-name warning loops. The pattern is interpolated, so perl compiles
# one regex per name and line: this is where most of hipify-perl's time goes.
def warn_hash_sub(name, hash_name, message, cudnn):
    lines = ["", "sub %s {" % name, "    my $line_num = shift;", "    my $k = 0;",
             "    while (my($func, $val) = each %%%s)" % hash_name, "    {",
             "        my $mt = m/($func)/g;", "        if ($mt) {", "            $k += $mt;"]
    if cudnn:
        lines += ['            my $cudnn = "CUDNN";', '            my $cuda = "CUDA";',
                  "            if (index(lc($func),lc($cudnn)) == 0) {", "                $cuda = $cudnn;",
                  "            }"]
    lines += ['            print STDERR "  warning: $fileName:$line_num: %s\\n";' % message,
              "        }", "    }", "    return $k;", "}"]
    return "\n".join(lines) + "\n"


def warn_list_sub(name, names, message):
    return ("\nsub %s {\n    my $line_num = shift;\n    my $k = 0;\n    foreach $func (\n%s\n    )\n    {\n"
            "        my $mt = m/($func)/g;\n        if ($mt) {\n            $k += $mt;\n"
            '            print STDERR "  warning: $fileName:$line_num: %s\\n";\n'
            "        }\n    }\n    return $k;\n}\n") % (name, perl_list(names), message)


def device_sub(name, names, warn):
    if not names:
        return "\nsub %s {\n    return 0;\n}\n" % name
    head = "    my $line_num = shift;\n" if warn else ""
    report = ('            print STDERR "  warning: $fileName:$line_num: unsupported device function '
              '\\"$func\\": $_\\n";\n') if warn else ""
    return ("\nsub %s {\n%s    my $k = 0;\n    foreach $func (\n%s\n    )\n    {\n"
            "        # not somenamespace::func(...), but ::func(...) and func(...)\n"
            "        my $mt_namespace = m/(\\w+)::($func)\\s*\\(\\s*.*\\s*\\)/g;\n"
            "        my $mt = m/\\b($func)\\b\\s*\\(\\s*.*\\s*\\)/g;\n"
            "        if ($mt && !$mt_namespace) {\n            $k += $mt;\n%s"
            "        }\n    }\n    return $k;\n}\n") % (name, head, perl_list(names), report)


def launch_subs():
    arg = r"([^,\(\)]+|[\w\s:]*\([\w|\s|,|:|\+|\*|\-|\/|(?R)]+\))"
    sep = r"\s*,\s*"
    out = ["", "# CUDA kernel launch syntax, rewritten only with -hip-kernel-execution-syntax",
           "sub transformKernelLaunch {", "    no warnings qw/uninitialized/;", "    my $k = 0;"]
    for nargs in (4, 3, 2):
        args = sep.join([arg] * nargs)
        for templ in (True, False):
            for empty in (True, False):
                first = 3 if templ else 2
                params = ["$%d" % (first + i) for i in range(nargs)] + ["0"] * (4 - nargs)
                name = "HIP_KERNEL_NAME($1<$2>)" if templ else "$1"
                head = r"([:|\w]+)\s*" + (r"<(.+)>\s*" if templ else "")
                call = r"\s*>>>\s*\(" + (r"\s*\)" if empty else "")
                repl = "hipLaunchKernelGGL(%s, %s%s" % (name, ", ".join(params), ")" if empty else ", ")
                out.append("    $k += s/%s<<<\\s*%s%s/%s/g;" % (head, args, call, repl))
    out += ["    if ($k) {", "        $ft{'kernel_launch'} += $k;", "        $Tkernels{$1}++;", "    }", "}"]
    return "\n".join(out) + "\n"


def host_sub(host):
    s = r"$k += s/(?<!\/\/ CHECK: )($func)\s*\("
    a = r"([^,\)]+)"
    tail = r"(,\s*|\))"
    out = ["", "sub transformHostFunctions {", "    my $k = 0;"]
    for index, action, names in host:
        # groups: $2..$(index+1) the leading arguments, then the spaces, the
        # argument, and what follows it
        lead = ",".join([a] * index)
        if index == 0:
            pat = s + a + ",/$func\\(HIP_SYMBOL\\($2\\),/g;"
        else:
            n = index + 1
            pat = s + lead + r",([\s]*)" + a + tail + "/$func\\(" + ",".join("$%d" % i for i in range(2, n + 1))
            if action == "drop":
                pat += "$%d/g;" % (n + 3)
            else:
                pat += ",$%dHIP_SYMBOL\\($%d\\)$%d/g;" % (n + 1, n + 2, n + 3)
        out += ["    foreach $func (", perl_list(names), "    )", "    {", "        " + pat, "    }"]
    out += ["    return $k;", "}"]
    return "\n".join(out) + "\n"


HEADER = r'''#!/usr/bin/env perl
# Regenerated by hipport's tools/bench/gen_hipify_perl.py from the HIPIFY tables,
# with the layout of hipify-clang's hipify-perl, to measure what it costs.
use warnings;
use Cwd;
use Getopt::Long;
use File::Basename;
my $whitelist = "";
my $exclude_dirs = "";
my $exclude_files = "";
my $fileName = "";
my $hipFileName = "";
my %ft;
my %Tkernels;
my %tags = ();
my %tagsTotal = ();
my %tagsToConvertedTags = ();
my %tagsToConvertedTagsTotal = ();
my %convertedTags = ();
my %convertedTagsTotal = ();

GetOptions(
      "cuda-kernel-execution-syntax" => \$cuda_kernel_execution_syntax
    , "examine" => \$examine
    , "exclude-dirs=s" => \$exclude_dirs
    , "exclude-files=s" => \$exclude_files
    , "experimental" => \$experimental
    , "help" => \$help
    , "hip-kernel-execution-syntax" => \$hip_kernel_execution_syntax
    , "inplace" => \$inplace
    , "no-output" => \$no_output
    , "o=s" => \$hipFileName
    , "print-stats" => \$print_stats
    , "quiet-warnings" => \$quiet_warnings
    , "roc" => \$roc
    , "version" => \$version
    , "whitelist=s" => \$whitelist
);

$cuda_kernel_execution_syntax = 1;

'''

STATS = r'''
sub totalStats {
    my %count = %{shift()};
    my $total = 0;
    foreach $key (keys %count) {
        $total += $count{$key};
    }
    return $total;
}

sub printStats {
    my %counts    = %{shift()};
    my $warnings  = shift();
    my $loc       = shift();
    my $fileName  = shift();
    my $global    = shift();
    my $total     = totalStats(\%counts);
    printf STDERR "\n[HIPIFY] info: file '$fileName' statistics:\n";
    printf STDERR "  CONVERTED refs count: $total\n";
    printf STDERR "  TOTAL lines of code: $loc\n";
    printf STDERR "  WARNINGS: $warnings\n";
    printf STDERR "[HIPIFY] info: CONVERTED refs by names:\n";
    if ($global) {
        foreach my $key (sort keys %tagsToConvertedTagsTotal) {
            printf STDERR "  %s => %s: %d\n", $key, $tagsToConvertedTagsTotal{$key}, $convertedTagsTotal{$tagsToConvertedTagsTotal{$key}};
        }
    } else {
        foreach my $key (sort keys %tagsToConvertedTags) {
            printf STDERR "  %s => %s: %d\n", $key, $tagsToConvertedTags{$key}, $convertedTags{$tagsToConvertedTags{$key}};
        }
    }
}

sub addStats {
    my $dest_ref  = shift();
    my %adder     = %{shift()};
    foreach $key (keys %adder) {
        $dest_ref->{$key} += $adder{$key};
    }
}

sub clearStats {
    my $dest_ref  = shift();
    my @statNames = @{shift()};
    foreach $stat(@statNames) {
        $dest_ref->{$stat} = 0;
    }
}

# One substitution: the pattern is interpolated, so perl compiles it on every call.
sub subst {
    my $a = shift();
    my $b = shift();
    my $t = shift();
    my $i = "";
    if ($t eq "include" or $t eq "include_cuda_main_header") {
        $i = "(?<![\\!~`@#\\$%\\^&\\*\\-+=\\[\\]\\(\\)\\{\\}\\.\\,\\?'\\>])";
    }
    if (my $c += s/$i\b$a\b/$b/g) {
        $ft{$t} += $c;
        $tags{$a} +=$c;
        $tagsTotal{$a} +=$c;
        $convertedTags{$b} +=$c;
        $convertedTagsTotal{$b} +=$c;
        $tagsToConvertedTags{$a} = $b;
        $tagsToConvertedTagsTotal{$a} = $b;
    }
}
'''

CUB = r'''
sub transformCubNamespace {
    my $k = 0;
    $k += s/using\s*namespace\s*cub/using namespace hipcub/g;
    $k += s/\bcub::\b/hipcub::/g;
    return $k;
}
'''

MAIN = r'''
# Count of transforms in all files
my %tt;
clearStats(\%tt, \@statNames);
$Twarnings = 0;
$TlineCount = 0;
my %TwarningTags;
my $fileCount = @ARGV;
if ($help) {
    print STDERR "usage: hipify-perl [OPTIONS] INPUT_FILE\n";
}
if ($version) {
    print STDERR "HIP version 6.3.0\n";
}
while (@ARGV) {
    $fileName=shift (@ARGV);
    my $direxclude = 0;
    my $fileDir = dirname(Cwd::realpath($fileName));
    if ($exclude_dirhash{$fileDir}) {
        print STDERR "Skipping the file: $fileName in the excluded directory: $fileDir \n";
        $direxclude = 1;
    } else {
        $fileDir = dirname($fileDir);
    }
    if ($exclude_filehash{$fileName}) {
        print STDERR "Skipping the excluded file: $fileName \n";
    }
    unless ($direxclude or $exclude_filehash{$fileName}) {
        if ($inplace) {
            my $file_prehip = "$fileName" . ".prehip";
            my $infile;
            my $outfile;
            if (-e $file_prehip) {
                $infile  = $file_prehip;
                $outfile = $fileName;
            } else {
                system ("cp $fileName $file_prehip");
                $infile = $file_prehip;
                $outfile = $fileName;
            }
            open(INFILE,"<", $infile) or die "error: could not open $infile";
            open(OUTFILE,">", $outfile) or die "error: could not open $outfile";
            $OUTFILE = OUTFILE;
        } else {
            open(INFILE,"<", $fileName) or die "error: could not open $fileName";
            if ($hipFileName ne "") {
                open(OUTFILE,">", $hipFileName) or die "error: could not open $hipFileName";
                $OUTFILE = OUTFILE;
            } else {
                $OUTFILE = STDOUT;
            }
        }
        clearStats(\%ft, \@statNames);
        my $countIncludes = 0;
        my $countKeywords = 0;
        my $warnings = 0;
        my %warningTags;
        my $lineCount = 0;
        %tags = ();
        %convertedTags = ();
        %tagsToConvertedTags = ();
        undef $/;
        # the whole file at once
        while (<INFILE>) {
            $countKeywords += m/__global__/;
            $countKeywords += m/__shared__/;
            unless ($quiet_warnings) {
                my @lines = split /\n/, $_;
                my $tmp = $_;
                my $line_num = 0;
                foreach (@lines) {
                    $line_num++;
                    if (!$experimental) {
                        $s = warnExperimentalFunctions($line_num);
                        $warnings += $s;
                    }
                    $s = warnRemovedFunctions($line_num);
                    $warnings += $s;
                    $s = warnDeprecatedFunctions($line_num);
                    $warnings += $s;
                    $s = warnUnsupportedFunctions($line_num);
                    $warnings += $s;
                    if ($roc) {
                        $s = warnRocOnlyUnsupportedFunctions($line_num);
                        $warnings += $s;
                    } else {
                        $s = warnHipOnlyUnsupportedFunctions($line_num);
                        $warnings += $s;
                    }
                    $s = warnUnsupportedDeviceFunctions($line_num);
                    $warnings += $s;
                }
                $_ = $tmp;
            }
            if ($roc) {
                rocSubstitutions();
            }
            if ($experimental) {
                experimentalSubstitutions();
            }
            simpleSubstitutions();
            if (!$cuda_kernel_execution_syntax || $hip_kernel_execution_syntax) {
                transformKernelLaunch();
            }
            transformCubNamespace();
            my $hasDeviceCode = $countKeywords + $ft{'device_function'};
            unless ($quiet_warnings) {
                if ($hasDeviceCode or (/\bcu|CU/) or (/<<<.*>>>/)) {
                    my @lines = split /\n/, $_;
                    my $tmp = $_;
                    my $line_num = 0;
                    foreach (@lines) {
                        $line_num++;
                        foreach $w (@whitelist) {
                            redo if s/\b$w\b/ZAP/
                        }
                        my $tag;
                        if ((/(\bcuda[A-Z]\w+)/) or ((/<<<.*>>>/) and ($hip_kernel_execution_syntax))) {
                            $tag = (defined $1) ? $1 : "Launch";
                        }
                        if (defined $tag) {
                            $warnings++;
                            $warningTags{$tag}++;
                            print STDERR "  warning: $fileName:#$line_num : $_\n";
                        }
                    }
                    $_ = $tmp;
                }
            }
            if ($hasDeviceCode > 0) {
                $ft{'device_function'} += countSupportedDeviceFunctions();
            }
            transformHostFunctions();
            unless ($no_output) {
                my $apiCalls   = @API_CALLS@;
                my $kernStuff  = $hasDeviceCode + $ft{'kernel_launch'} + $ft{'device_function'};
                my $totalCalls = $apiCalls + $kernStuff;
                $is_dos = m/\r\n$/;
                if ($totalCalls and ($countIncludes == 0) and ($kernStuff != 0)) {
                    print $OUTFILE '#include "hip/hip_runtime.h"' . ($is_dos ? "\r\n" : "\n");
                }
                print $OUTFILE  "$_";
            }
            $lineCount = $_ =~ tr/\n//;
        }
        my $totalConverted = totalStats(\%ft);
        if (($totalConverted+$warnings) and $print_stats) {
            printStats(\%ft, $warnings, $lineCount, $fileName, 0);
        }
        addStats(\%tt, \%ft);
        $Twarnings += $warnings;
        $TlineCount += $lineCount;
        foreach $key (keys %warningTags) {
            $TwarningTags{$key} += $warningTags{$key};
        }
    }
}
if ($print_stats and ($fileCount > 1)) {
    printStats(\%tt, $Twarnings, $TlineCount, "GLOBAL", 1);
    print STDERR "\n";
}
'''


def render(simple, experimental, roc, deprecated, removed, experimentals, unsupported, hip_only, roc_only,
           dev_supported, dev_unsupported, host):
    parts = [HEADER, perl_hash("deprecated_funcs", deprecated), perl_hash("removed_funcs", removed),
             perl_hash("experimental_funcs", experimentals)]
    parts.append("$print_stats = 1 if $examine;\n$no_output = 1 if $examine;\n\n")
    parts.append("@whitelist = (\n%s\n);\n\n" % ",\n".join("    %s" % q(w) for w in WHITELIST))
    parts.append("push(@whitelist, split(',', $whitelist));\n"
                 "push(@exclude_dirlist, split(',', $exclude_dirs));\n"
                 "push(@exclude_filelist, split(',', $exclude_files));\n"
                 "%exclude_dirhash = map { $_ => 1 } @exclude_dirlist;\n"
                 "%exclude_filehash = map { $_ => 1 } @exclude_filelist;\n\n")
    parts.append("@statNames = (%s);\n" % ", ".join(q(k) for k in KINDS))
    parts.append(STATS)
    for name, lines in (("experimentalSubstitutions", experimental), ("rocSubstitutions", roc),
                        ("simpleSubstitutions", simple)):
        parts.append("\nsub %s {\n%s\n}\n" % (name, "\n".join(lines)))
    parts.append(launch_subs())
    parts.append(CUB)
    parts.append(host_sub(host))
    parts.append(device_sub("countSupportedDeviceFunctions", dev_supported, False))
    parts.append(device_sub("warnUnsupportedDeviceFunctions", dev_unsupported, True))
    parts.append(warn_hash_sub("warnExperimentalFunctions", "experimental_funcs",
                               'experimental identifier \\"$func\\" in HIP $val', False))
    parts.append(warn_hash_sub("warnDeprecatedFunctions", "deprecated_funcs",
                               'deprecated identifier \\"$func\\" since $cuda $val', True))
    parts.append(warn_hash_sub("warnRemovedFunctions", "removed_funcs",
                               'removed identifier \\"$func\\" since $cuda $val', True))
    parts.append(warn_list_sub("warnUnsupportedFunctions", unsupported, 'unsupported identifier \\"$func\\"'))
    parts.append(warn_list_sub("warnHipOnlyUnsupportedFunctions", hip_only,
                               'unsupported identifier \\"$func\\"'))
    parts.append(warn_list_sub("warnRocOnlyUnsupportedFunctions", roc_only,
                               'unsupported by ROC identifier \\"$func\\"'))
    excluded = ("device_function", "extern_shared", "kernel_launch")
    api = " + ".join("$ft{'%s'}" % k for k in KINDS if k not in excluded)
    parts.append(MAIN.replace("@API_CALLS@", api))
    return "".join(parts)


def main():
    ap = argparse.ArgumentParser(description="Regenerate a hipify-perl from the HIPIFY tables.")
    ap.add_argument("--tables", default=TABLES, help="HIPIFY tables directory (default %(default)s)")
    ap.add_argument("--overrides", default=OVERRIDES, help="header rows from here (default %(default)s)")
    ap.add_argument("-o", "--out", help="write the script here (default stdout)")
    ap.add_argument("--counts", action="store_true", help="print the counts of each part to stderr")
    args = ap.parse_args()
    try:
        text, counts = generate(args.tables, args.overrides)
    except (OSError, ValueError) as e:
        sys.exit("gen_hipify_perl: %s" % e)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(args.out, 0o755)
    else:
        sys.stdout.write(text)
    if args.counts:
        for k, v in counts.items():
            sys.stderr.write("%-34s %d\n" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
