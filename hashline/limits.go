package hashline

// Bounds of docs/contract.md §6.3 and docs/contract.md §19.1. They are constants, not settings: every one of them
// protects either the model from a blind write or the process from memory
// growth, and docs/contract.md §19.1 lists them.
const (
	MaxLineChars = 16384 // read clips longer lines and leaves them out of seen_lines

	MaxPathsPerSession = 64
	// A path keeps up to MaxVersionsPerPath versions while their text
	// fits in MaxPathTextBytes, and MinVersionsPerPath whatever their
	// size. A person typing in a buffer makes every read a new version,
	// and an agent's read must outlive a burst of them.
	MinVersionsPerPath   = 4
	MaxVersionsPerPath   = 32
	MaxPathTextBytes     = 2 << 20
	MaxSessionTextBytes  = 8 << 20
	MaxRetainedFileBytes = 2 << 20

	MaxOpsBytes     = 256 << 10
	MaxOpsPerCall   = 200
	MaxIRLines      = 100000
	MaxRevealLines  = 40
	MaxRevealChars  = 512
	MaxCaptureLines = 4096
	MaxCaptureBytes = 1 << 20
	MaxRegisters    = 16
	MaxBlockParse   = 4 << 20

	// MaxRepeatAttempts is the count at which the repeat guard ends the turn
	// (docs/contract.md §15.2: the third counted failure stops it).
	MaxRepeatAttempts = 3

	// DriftContextLines is how many live lines a tag-mismatch error shows on
	// each side of an anchor.
	DriftContextLines = 2
)
