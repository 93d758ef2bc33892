#!/usr/bin/awk -f
# Reads `go test -bench` output on stdin and states every benchmark as a
# ratio to the one named Baseline in the same package, measured in the same
# run, so the figures hold on any machine. Repeated runs (-count) are
# averaged. Exits 1 when a benchmark misses its target.
#
#   go test -run '^$' -bench . -benchmem ./hashline/ | awk -f scripts/benchratio.awk

BEGIN {
	target["Read"] = 3
	target["Edit"] = 4
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
	}
}

END {
	missed = 0
	for (k = 1; k <= count; k++) {
		key = order[k]
		split(key, part, SUBSEP)
		p = part[1]; name = part[2]
		avg = ns[key] / runs[key]
		line = sprintf("%-10s %12.0f ns/op %10.0f B/op %7.0f allocs/op", name, avg, bytes[key] / runs[key], allocs[key] / runs[key])
		base = p SUBSEP "Baseline"
		if (name == "Baseline") {
			line = line "  (the unit: SHA-256 + one copy)"
		} else if (base in runs && ns[base] > 0) {
			ratio = avg / (ns[base] / runs[base])
			line = line sprintf("  %5.2fx Baseline", ratio)
			if (name in target) {
				ok = ratio <= target[name]
				line = line sprintf(" (target <= %gx) %s", target[name], ok ? "ok" : "MISSED")
				if (!ok) missed = 1
			}
		} else {
			line = line "  (no Baseline in " p ")"
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
