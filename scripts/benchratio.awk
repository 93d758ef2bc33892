#!/usr/bin/awk -f
# Reads `go test -bench` output on stdin and states every benchmark as a
# ratio to its package's baseline, measured in the same run, so the figures
# hold on any machine. Repeated runs (-count) are averaged. A benchmark that
# reports latencies (p50-ms beside the pipe client's pipe-p50-ms, measured in
# the same run) is stated beside that baseline instead. Exits 1 when a
# benchmark misses its target. A benchmark that reports ratios of its own
# (metrics ending in -x, each measured against its baseline in the same
# loop, such as outline/parse-x) is stated by them, each against its target.
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
	# What the bridge may add to a call at p50, in microseconds.
	added["added-p50-us"] = 1000
	# Milliseconds a median latency may exceed the pipe client's.
	over["NeovimEdit2000"] = 5

	target["Read"] = 3
	target["Edit"] = 4
	target["Recover"] = 20
	target["DidChange10MB"] = 2

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
	runs[key]++
	for (i = 2; i <= NF; i++) {
		if ($i == "ns/op") ns[key] += $(i - 1)
		if ($i == "allocs/op") allocs[key] += $(i - 1)
		if ($i == "B/op") bytes[key] += $(i - 1)
		if ($i ~ /-us$/) {
			if (!((key, $i) in us)) metrics[key] = metrics[key] " " $i
			us[key, $i] += $(i - 1)
		}
		if ($i ~ /-ms$/) ms[key, $i] += $(i - 1)
		if ($i ~ /-x$/) {
			if (!((key, $i) in xv)) xm[key] = xm[key] " " $i
			xv[key, $i] += $(i - 1)
		}
	}
}

END {
	missed = 0
	for (k = 1; k <= count; k++) {
		key = order[k]
		split(key, part, SUBSEP)
		p = part[1]; name = part[2]
		if ((key, "p50-ms") in ms) {
			latency(key, p, name)
			continue
		}
		avg = ns[key] / runs[key]
		line = sprintf("%-26s %12.0f ns/op %10.0f B/op %7.0f allocs/op", name, avg, bytes[key] / runs[key], allocs[key] / runs[key])
		bname = (p in baseline) ? baseline[p] : "Baseline"
		base = p SUBSEP bname
		if (key in xm) {
			n = split(xm[key], names, " ")
			for (j = 1; j <= n; j++) {
				m = names[j]
				v = xv[key, m] / runs[key]
				line = line sprintf("\n      %-22s %8.3f", m, v)
				if (m in xtarget) {
					ok = v <= xtarget[m]
					line = line sprintf(" (target <= %g) %s", xtarget[m], ok ? "ok" : "MISSED")
					if (!ok) missed = 1
				}
			}
		} else if (bname == "-") {
			n = split(metrics[key], names, " ")
			for (j = 1; j <= n; j++) {
				m = names[j]
				v = us[key, m] / runs[key]
				line = line sprintf("\n      %-14s %9.1f", m, v)
				if (m in added) {
					ok = v <= added[m]
					line = line sprintf(" (target <= %g) %s", added[m], ok ? "ok" : "MISSED")
					if (!ok) missed = 1
				}
			}
		} else if (name == bname) {
			line = line "  (the unit: " ((p in unit) ? unit[p] : "baseline") ")"
		} else if (base in runs && ns[base] > 0) {
			ratio = avg / (ns[base] / runs[base])
			line = line sprintf("  %5.2fx %s", ratio, bname)
			if (name in target) {
				ok = ratio <= target[name]
				line = line sprintf(" (target <= %gx) %s", target[name], ok ? "ok" : "MISSED")
				if (!ok) missed = 1
			}
		} else {
			line = line "  (no " bname " in " p ")"
		}
		if (p != lastpkg) {
			print p
			lastpkg = p
		}
		print "  " line
	}
	if (count == 0) {
		print "benchratio: no benchmark lines on stdin" > "/dev/stderr"
		exit 1
	}
	exit missed
}

# latency prints a benchmark that reports medians and 90th percentiles
# beside the pipe client's, and holds its median to its target.
function latency(key, p, name,   n, base, line, d) {
	n = runs[key]
	base = name
	sub(/\/.*/, "", base)
	line = sprintf("%-26s p50 %7.2f ms  p90 %7.2f ms  beside the pipe client's p50 %5.2f ms  p90 %5.2f ms",
		name, ms[key, "p50-ms"] / n, ms[key, "p90-ms"] / n, ms[key, "pipe-p50-ms"] / n, ms[key, "pipe-p90-ms"] / n)
	if (base in over) {
		d = (ms[key, "p50-ms"] - ms[key, "pipe-p50-ms"]) / n
		line = line sprintf("  (p50 +%.2f ms, target <= +%g ms) %s", d, over[base], d <= over[base] ? "ok" : "MISSED")
		if (d > over[base]) missed = 1
	}
	if (p != lastpkg) {
		print p
		lastpkg = p
	}
	print "  " line
}
