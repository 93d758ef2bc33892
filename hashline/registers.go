package hashline

// Registers holds a session's named registers (docs/contract.md §9.1): captured lines, not
// live references, at most MaxRegisters of them, the coldest evicted first.
// The anonymous register is not here: it lives for one call.
type Registers struct {
	named map[string]*register
	clock uint64
}

type register struct {
	lines []string
	used  uint64
}

// NewRegisters returns an empty register file.
func NewRegisters() *Registers { return &Registers{named: map[string]*register{}} }

// Get returns the lines in register name.
func (r *Registers) Get(name string) ([]string, bool) {
	reg, ok := r.named[name]
	if !ok {
		return nil, false
	}
	r.clock++
	reg.used = r.clock
	return reg.lines, true
}

// has reports whether register name holds lines, without making it any
// warmer.
func (r *Registers) has(name string) bool {
	_, ok := r.named[name]
	return ok
}

// Set stores lines in register name, evicting the coldest register when the
// file is full.
func (r *Registers) Set(name string, lines []string) {
	r.clock++
	if reg, ok := r.named[name]; ok {
		reg.lines, reg.used = lines, r.clock
		return
	}
	if len(r.named) >= MaxRegisters {
		delete(r.named, coldest(r.named, func(reg *register) uint64 { return reg.used }))
	}
	r.named[name] = &register{lines: lines, used: r.clock}
}

// coldest names the entry of m that used says was used longest ago.
func coldest[V any](m map[string]V, used func(V) uint64) string {
	var cold string
	var at uint64
	for n, v := range m {
		if cold == "" || used(v) < at {
			cold, at = n, used(v)
		}
	}
	return cold
}

// Len is the number of named registers held.
func (r *Registers) Len() int { return len(r.named) }
