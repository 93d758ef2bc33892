package main

import (
	"bytes"
	"debug/macho"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"hashline-ls/internal/testenv"
)

// targets are the binaries `make servers` builds, by GOOS_GOARCH.
var targets = []string{"linux_amd64", "linux_arm64", "darwin_arm64", "darwin_amd64", "windows_amd64"}

// built returns the binary `make servers` built for target, skipping the
// test when it is missing (failing it in CI).
func built(t *testing.T, target string) string {
	t.Helper()
	exe := "hashline-ls"
	if strings.HasPrefix(target, "windows") {
		exe += ".exe"
	}
	path := filepath.Join("..", "..", "dist", "servers", target, exe)
	if _, err := os.Stat(path); err != nil {
		testenv.NotInstalled(t, path, "run make servers")
	}
	return path
}

func grammars(t *testing.T) []string {
	t.Helper()
	g, err := Grammars("hashline-ls/cmd/hashline-ls")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestGrammars finds an entry point for each grammar package linked.
func TestGrammars(t *testing.T) {
	g := grammars(t)
	out, err := exec.Command("go", "list", "-deps", "hashline-ls/cmd/hashline-ls").Output()
	if err != nil {
		t.Fatal(err)
	}
	var pkgs int
	for line := range strings.Lines(string(out)) {
		if strings.HasPrefix(line, grammarPackages) {
			pkgs++
		}
	}
	if len(g) != pkgs || !slices.Contains(g, "tree_sitter_go") || !slices.Contains(g, "tree_sitter_tsx") {
		t.Fatalf("%d entry points for %d grammar packages: %v", len(g), pkgs, g)
	}
}

// TestBuiltServers runs every check on every binary `make servers` built.
func TestBuiltServers(t *testing.T) {
	g := grammars(t)
	for _, target := range targets {
		t.Run(target, func(t *testing.T) {
			r, err := Check(built(t, target), target, g)
			if err != nil {
				t.Fatal(err)
			}
			t.Log("\n" + strings.Join(r.Lines, "\n"))
			if r.Failed() {
				t.Fatal("a check failed (above)")
			}
		})
	}
}

// TestMachOAsLLVMSeesIt reads the macOS binaries with LLVM's tools, which
// share no code with the checks here, and compares: the libraries, the
// minimum version, and the library each undefined symbol is bound to.
func TestMachOAsLLVMSeesIt(t *testing.T) {
	for _, tool := range []string{"llvm-objdump-14", "llvm-nm-14"} {
		if _, err := exec.LookPath(tool); err != nil {
			testenv.NotInstalled(t, tool, "apt-get install llvm-14")
		}
	}
	short := map[string]string{"libSystem": machoLibraries[0], "libresolv": machoLibraries[1], "CoreFoundation": machoLibraries[2], "Security": machoLibraries[3]}
	for _, target := range []string{"darwin_arm64", "darwin_amd64"} {
		t.Run(target, func(t *testing.T) {
			path := built(t, target)
			f, err := macho.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			run := func(args ...string) string {
				out, err := exec.Command(args[0], append(args[1:], path)...).Output()
				if err != nil {
					t.Fatalf("%v: %v", args, err)
				}
				return string(out)
			}
			var llvmLibs []string
			for _, m := range regexp.MustCompile(`(?m)^\s+(/\S+) \(compatibility`).FindAllStringSubmatch(run("llvm-objdump-14", "--macho", "--dylibs-used"), -1) {
				llvmLibs = append(llvmLibs, m[1])
			}
			if ours := machoDylibs(f); !slices.Equal(llvmLibs, ours) {
				t.Errorf("llvm-objdump lists %v, checkbin %v", llvmLibs, ours)
			}
			headers := run("llvm-objdump-14", "--macho", "--private-headers")
			if !regexp.MustCompile(`cmd LC_BUILD_VERSION\n\s+cmdsize \d+\n\s+platform macos\n\s+sdk [\d.]+\n\s+minos 12\.0\n`).MatchString(headers) {
				t.Errorf("llvm-objdump does not show LC_BUILD_VERSION for macOS with minos 12.0")
			}
			// "(undefined) external _name (from libSystem)"
			undefined := regexp.MustCompile(`(?m)^\s+\(undefined\) (?:weak )?external (\S+) \(from (\S+)\)$`).FindAllStringSubmatch(run("llvm-nm-14", "-m", "-u"), -1)
			lines := strings.Count(run("llvm-nm-14", "-u"), "\n")
			d := f.Dysymtab
			if len(undefined) != lines || len(undefined) != int(d.Nundefsym) {
				t.Fatalf("llvm-nm: %d undefined symbols, %d bound to a library; checkbin counts %d", lines, len(undefined), d.Nundefsym)
			}
			ours := map[string]string{}
			for _, s := range f.Symtab.Syms[d.Iundefsym : d.Iundefsym+d.Nundefsym] {
				ours[s.Name] = machoDylibs(f)[s.Desc>>8-1]
			}
			for _, m := range undefined {
				if lib, ok := short[m[2]]; !ok || ours[m[1]] != lib {
					t.Errorf("llvm-nm binds %s to %s; checkbin reads %q", m[1], m[2], ours[m[1]])
				}
			}
			defined := run("llvm-nm-14", "-m", "--defined-only")
			for _, g := range grammars(t) {
				if !regexp.MustCompile(`\(__TEXT,__text\) external _` + g + `\n`).MatchString(defined) {
					t.Errorf("llvm-nm shows no defined function _%s", g)
				}
			}
			t.Logf("llvm agrees: %d libraries, minos 12.0, %d undefined symbols each bound to one of them, %d grammars", len(llvmLibs), len(undefined), len(grammars(t)))
		})
	}
}

// machoCopy reads the arm64 binary for a test that damages it.
func machoCopy(t *testing.T) ([]byte, *macho.File) {
	t.Helper()
	data, err := os.ReadFile(built(t, "darwin_arm64"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := macho.NewFile(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	return data, f
}

// loadOffset is the file offset of the first load command of type cmd.
func loadOffset(t *testing.T, f *macho.File, cmd uint32) int {
	t.Helper()
	off := 32 // a 64-bit Mach-O header
	for _, l := range f.Loads {
		raw := l.Raw()
		if f.ByteOrder.Uint32(raw) == cmd {
			return off
		}
		off += len(raw)
	}
	t.Fatalf("no load command %#x", cmd)
	return 0
}

// failedLine is the line of r for check, which must have failed.
func failedLine(t *testing.T, r *Report, check string) string {
	t.Helper()
	for _, l := range r.Lines {
		if strings.HasPrefix(l, "FAIL "+check+":") {
			return l
		}
	}
	t.Fatalf("the %s check did not fail:\n%s", check, strings.Join(r.Lines, "\n"))
	return ""
}

// TestChecksCatchDamage changes one thing at a time in a copy of the
// arm64 binary and expects exactly the check that guards it to fail.
func TestChecksCatchDamage(t *testing.T) {
	g := grammars(t)
	cases := []struct {
		name, check, want string
		damage            func(data []byte, f *macho.File)
	}{
		{"a changed byte in the code", "signature", "page 5 ", func(data []byte, f *macho.File) {
			data[5*4096+100] ^= 1
		}},
		{"minimum macOS 13", "minimum macOS", "asks for macOS 13.0, want 12.0", func(data []byte, f *macho.File) {
			binary.LittleEndian.PutUint32(data[loadOffset(t, f, lcBuildVersion)+12:], 13<<16)
		}},
		{"another library", "libraries", "/usr/lib/libresolX.9.dylib", func(data []byte, f *macho.File) {
			i := bytes.Index(data, []byte("/usr/lib/libresolv.9.dylib"))
			data[i+len("/usr/lib/libresol")] = 'X'
		}},
		{"a symbol left to flat lookup", "imports", "(ordinal 255)", func(data []byte, f *macho.File) {
			// nlist_64: n_strx u32, n_type u8, n_sect u8, n_desc u16, n_value u64.
			// (debug/macho leaves Symtab.Symoff zero: read the command.)
			symoff := f.ByteOrder.Uint32(f.Symtab.Raw()[8:])
			at := int(symoff) + int(f.Dysymtab.Iundefsym)*16 + 6
			binary.LittleEndian.PutUint16(data[at:], binary.LittleEndian.Uint16(data[at:])|0xff00)
		}},
		{"a grammar renamed", "grammars", "tree_sitter_go", func(data []byte, f *macho.File) {
			i := bytes.Index(data, []byte("\x00_tree_sitter_go\x00"))
			data[i+len("\x00_tree_sitter_g")] = 'x'
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, f := machoCopy(t)
			c.damage(data, f)
			r, err := checkMachO(data, "arm64", g)
			if err != nil {
				t.Fatal(err)
			}
			if l := failedLine(t, r, c.check); !strings.Contains(l, c.want) {
				t.Fatalf("%s, want it to name %q", l, c.want)
			}
			for _, l := range r.Lines {
				// A change in a covered page breaks the signature too.
				if strings.HasPrefix(l, "FAIL") && !strings.HasPrefix(l, "FAIL "+c.check+":") && !strings.HasPrefix(l, "FAIL signature:") {
					t.Errorf("another check failed too: %s", l)
				}
			}
		})
	}
}

// TestELFCatchesDynamicLinking checks a dynamically linked program of this
// machine, which loads glibc, and expects the Linux checks to refuse it.
func TestELFCatchesDynamicLinking(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	sh, _ = filepath.EvalSymlinks(sh)
	data, err := os.ReadFile(sh)
	if err != nil {
		t.Fatal(err)
	}
	r, err := checkELF(data, "amd64", grammars(t))
	if err != nil {
		t.Skipf("%s is not ELF: %v", sh, err)
	}
	failedLine(t, r, "libraries")
	failedLine(t, r, "grammars")
}
