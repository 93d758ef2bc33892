#!/usr/bin/awk -f
# Reads `go test -bench` output on stdin and states every benchmark as a
# ratio to a baseline measured in the same run, so the figures hold on any
# machine. Repeated runs (-count) are summed up by their median.
#
# A benchmark that times its floor in its own loop (package internal/floor)
# reports x-UNIT, the median of its time over the floor's, UNIT-ns/op beside
# it: that ratio is its figure, and its target is held to it. Its ratio to
# its package's baseline, the unit of the figures before, is printed after
# it for continuity, and its CPU time over the floor's (cpu-x-UNIT, on
# every thread) where it is reported. A benchmark that reports latencies
# (p50-ms beside the pipe client's pipe-p50-ms, measured in the same run) is
# stated beside that baseline instead. A benchmark that reports ratios of its own (metrics
# ending in -x, each measured against its baseline in the same loop, such as
# outline/parse-x) is stated by them, each against its target. Exits 1 when
# a benchmark misses its target.
#
#   go test -run '^$' -bench . -benchmem ./hashline/ | awk -f scripts/benchratio.awk

BEGIN {
	# The baseline of each package, and what it stands for.
	baseline["hashline-ls/hashline"] = "Baseline"
	unit["hashline-ls/hashline"] = "SHA-256 + one copy of the same bytes"
	baseline["hashline-ls/documents"] = "Copy10MB"
	unit["hashline-ls/documents"] = "one copy of 10 MB"
	baseline["hashline-ls/lsp"] = "ReadOpenBuffer2000"
	unit["hashline-ls/lsp"] = "a read of the same buffer through the pipe"
	baseline["hashline-ls/search"] = "Baseline"
	unit["hashline-ls/search"] = "one count of the text's line endings"
	baseline["hashline-ls/commands"] = "ReadTree"
	unit["hashline-ls/commands"] = "reading every file of the tree once"
	# The bridge's benchmarks time their baseline, the same call through
	# the editor's own executeCommand, in their own loop, and report
	# percentiles in microseconds (the -us metrics).
	baseline["hashline-ls/mcp"] = "-"
	# What the floors of the x-UNIT figures are.
	floor["sha256"] = "one SHA-256 pass of the same bytes"
	floor["copy"] = "one copy of the same bytes"
	# What the bridge may add to a call at p50, in microseconds.
	added["added-p50-us"] = 1000
	# Milliseconds a median latency may exceed the pipe client's.
	over["NeovimEdit2000"] = 5

	# Targets of the x-UNIT figures.
	target["Read"] = 1.8
	target["ReadCorpus"] = 1.8
	target["Edit"] = 2.8
	target["EditCorpus"] = 2.8
	target["Recover"] = 8
	target["RecoverCorpus"] = 8
	target["WarmReadDisk"] = 0.6
	target["WarmReadOpen"] = 0.6
	target["DidChange10MB"] = 1.5
	target["DidChangeBatch10MB"] = 2
	# The read of an open buffer after a keystroke, no slower than before
	# the store kept its buffers (1.34x, measured as here).
	target["ReadAfterKeystroke10MB"] = 1.34
	# Targets of other metrics: the most they may be.
	most["Keystrokes10MB", "peak-growth-MiB"] = 1

	# Targets of the ratios benchmarks report themselves (-x metrics).
	xtarget["outline/parse-x"] = 1.3
	xtarget["median-bytes-x"] = 0.2
	baseline["hashline-ls/hashline/blocks"] = "-"
}

/^pkg: / { pkg = $2 }

/^Benchmark/ {
	name = $1
	sub(/^Benchmark/, "", name)
	sub(/-[0-9]+$/, "", name)
	key = pkg SUBSEP name
	if (!(key in runs)) {
		order[++count] = key
	}
	r = ++runs[key]
	for (i = 3; i <= NF; i += 2) {
		m = $(i + 1)
		if (!((key, m) in nval)) metrics[key] = metrics[key] " " m
		val[key, m, ++nval[key, m]] = $i
	}
}

END {
	missed = 0
	for (k = 1; k <= count; k++) {
		key = order[k]
		split(key, part, SUBSEP)
		p = part[1]; name = part[2]
		if ((key, "p50-ms") in nval) {
			latency(key, p, name)
			continue
		}
		avg = med(key, "ns/op")
		line = sprintf("%-26s %12.0f ns/op %10.0f B/op %7.0f allocs/op", name, avg, med(key, "B/op"), med(key, "allocs/op"))
		bname = (p in baseline) ? baseline[p] : "Baseline"
		base = p SUBSEP bname
		xm = ""
		own = 0
		n = split(metrics[key], names, " ")
		for (j = 1; j <= n; j++) {
			if (names[j] ~ /^x-/) xm = names[j]
			if (names[j] ~ /-x$/) own = 1
		}
		if (own) {
			line = line listed(key, names, n, "-x$", "\n      %-22s %8.3f", xtarget)
		} else if (bname == "-" && xm == "") {
			line = line listed(key, names, n, "-us$", "\n      %-14s %9.1f", added)
		} else if (name == bname) {
			line = line "  (the unit: " ((p in unit) ? unit[p] : "baseline") ")"
		} else if (xm != "") {
			u = substr(xm, 3)
			ratio = med(key, xm)
			line = line sprintf("\n      %6.2fx %s, in the same loop (%.0f ns)", ratio, (u in floor) ? floor[u] : u, med(key, u "-ns/op"))
			if (name in target) line = line held(ratio, target[name], "x")
			if ((key, "cpu-" xm) in nval) {
				line = line sprintf("\n      %6.2fx in CPU time, on all threads, over the floor's", med(key, "cpu-" xm))
			}
			if (base in runs && med(base, "ns/op") > 0) {
				line = line sprintf("\n      %6.2fx %s, as before", avg / med(base, "ns/op"), bname)
			}
		} else if (avg == 0) {
			# A benchmark of other metrics only.
		} else if (base in runs && med(base, "ns/op") > 0) {
			ratio = avg / med(base, "ns/op")
			line = line sprintf("  %5.2fx %s", ratio, bname)
			if (name in target) line = line held(ratio, target[name], "x")
		} else {
			line = line "  (no " bname " in " p ")"
		}
		for (j = 1; j <= n; j++) {
			m = names[j]
			if (m ~ /MiB$/) {
				line = line sprintf("\n      %-18s %9.1f", m, med(key, m))
				if ((name, m) in most) line = line held(med(key, m), most[name, m], "")
			}
		}
		emit(p, line)
	}
	if (count == 0) {
		print "benchratio: no benchmark lines on stdin" > "/dev/stderr"
		exit 1
	}
	exit missed
}

# held says whether v is within lim, the most it may be (a figure in
# unit), and notes a miss in missed.
function held(v, lim, unit) {
	if (v > lim) missed = 1
	return sprintf(" (target <= %g%s) %s", lim, unit, v <= lim ? "ok" : "MISSED")
}

# listed is the metrics of key among names[1..n] that match pat, each
# shown as format says and held to its most in lim, where lim has one.
function listed(key, names, n, pat, format, lim,   j, m, v, s) {
	for (j = 1; j <= n; j++) {
		m = names[j]
		if (m !~ pat) continue
		v = med(key, m)
		s = s sprintf(format, m, v)
		if (m in lim) s = s held(v, lim[m], "")
	}
	return s
}

# med is the median of metric m over the runs of key (0 when absent).
function med(key, m,   n, i, j, t, v) {
	n = nval[key, m]
	if (n == 0) return 0
	for (i = 1; i <= n; i++) v[i] = val[key, m, i] + 0
	for (i = 2; i <= n; i++) {
		t = v[i]
		for (j = i - 1; j >= 1 && v[j] > t; j--) v[j + 1] = v[j]
		v[j + 1] = t
	}
	if (n % 2) return v[(n + 1) / 2]
	return (v[n / 2] + v[n / 2 + 1]) / 2
}

# latency prints a benchmark that reports medians and 90th percentiles
# beside the pipe client's, and holds its median to its target.
function latency(key, p, name,   base, line, d) {
	base = name
	sub(/\/.*/, "", base)
	line = sprintf("%-26s p50 %7.2f ms  p90 %7.2f ms  beside the pipe client's p50 %5.2f ms  p90 %5.2f ms",
		name, med(key, "p50-ms"), med(key, "p90-ms"), med(key, "pipe-p50-ms"), med(key, "pipe-p90-ms"))
	if (base in over) {
		d = med(key, "p50-ms") - med(key, "pipe-p50-ms")
		line = line sprintf("  (p50 +%.2f ms, target <= +%g ms) %s", d, over[base], d <= over[base] ? "ok" : "MISSED")
		if (d > over[base]) missed = 1
	}
	emit(p, line)
}

# emit prints a benchmark's line, under its package's name when it is the
# package's first.
function emit(p, line) {
	if (p != lastpkg) {
		print p
		lastpkg = p
	}
	print "  " line
}
