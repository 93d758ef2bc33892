package hashline

import (
	"errors"
	"fmt"
)

// Code classifies a failure. The set is closed: the codes of docs/contract.md §18.2.
type Code string

const (
	CodeTagRequired        Code = "EDIT_TAG_REQUIRED"
	CodeTagMismatch        Code = "EDIT_TAG_MISMATCH"
	CodeTagUnknown         Code = "EDIT_TAG_UNKNOWN"
	CodeLinesUnseen        Code = "EDIT_LINES_UNSEEN"
	CodeParseFailed        Code = "EDIT_PARSE_FAILED"
	CodeRangeInvalid       Code = "EDIT_RANGE_INVALID"
	CodeBlockUnresolved    Code = "EDIT_BLOCK_UNRESOLVED"
	CodeRegisterEmpty      Code = "EDIT_REGISTER_EMPTY"
	CodeRegisterAmbiguous  Code = "EDIT_REGISTER_AMBIGUOUS"
	CodeRepairAmbiguous    Code = "EDIT_REPAIR_AMBIGUOUS"
	CodeNoChange           Code = "EDIT_NO_CHANGE"
	CodeAmplificationLimit Code = "EDIT_AMPLIFICATION_LIMIT"

	CodeInvalidArgument      Code = "INVALID_ARGUMENT"
	CodePathOutsideWorkspace Code = "PATH_OUTSIDE_WORKSPACE"
	CodeToolFailed           Code = "TOOL_FAILED"

	// CodeRetryBudgetExhausted is never an edit's own code: the repeat guard
	// attaches it when it ends the turn (docs/contract.md §15.2).
	CodeRetryBudgetExhausted Code = "MUTATION_RETRY_BUDGET_EXHAUSTED"
)

// Retriable reports whether an honest retry of the same call, after the step
// the message names, can succeed (docs/contract.md §18.2).
func (c Code) Retriable() bool {
	switch c {
	case CodeTagMismatch, CodeTagUnknown, CodeLinesUnseen, CodeRetryBudgetExhausted, CodeToolFailed:
		return true
	}
	return false
}

// Error is a failure the caller can act on. Message always names one concrete
// next step; Details carries what the retry needs (the live tag, revealed
// content), so the model need not ask again.
type Error struct {
	Code    Code
	Message string
	Details Details
	// Terminate tells the assistant's loop to stop after this call: the
	// repeat guard's budget for this file and turn is spent (docs/contract.md §15.2).
	Terminate bool
	err       error
}

// Details is the machine-readable part of an Error. Every field is optional.
type Details struct {
	// LiveTag is the tag of the text the server holds now.
	LiveTag string `json:"liveTag,omitempty"`
	// Lines are the anchor lines the failure is about.
	Lines []int `json:"lines,omitempty"`
	// Content is live content rendered as read rows under a header, around
	// the anchors or of the refused lines.
	Content string `json:"content,omitempty"`
	// Merged reports that revealed lines now count as seen, so retrying the
	// same call applies (docs/contract.md §12.4).
	Merged bool `json:"merged,omitempty"`
	// Field names the argument an INVALID_ARGUMENT is about.
	Field string `json:"field,omitempty"`
	// Op is the 1-based index of the op the failure is about, with its text.
	Op     int    `json:"op,omitempty"`
	OpText string `json:"opText,omitempty"`
	// Limit is the bound that was exceeded.
	Limit int `json:"limit,omitempty"`
	// Exhausted is set when the repeat guard ended the turn (docs/contract.md §15.2).
	Exhausted *Exhausted `json:"exhausted,omitempty"`
	// Problems lists everything wrong with a kli patch, across its files.
	Problems []Problem `json:"problems,omitempty"`
}

// Exhausted describes a turn stopped by the repeat guard.
type Exhausted struct {
	Code      Code   `json:"code"`
	Retriable bool   `json:"retriable"`
	Kind      string `json:"kind"`
	LastCode  Code   `json:"lastCode"`
	Attempts  int    `json:"attempts"`
	Recovery  string `json:"recovery"`
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func (e *Error) Unwrap() error { return e.err }

// Errorf returns an Error with a formatted message. The message should end
// with the next step the caller can take.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Wrap turns err into an Error of the given code, keeping err for errors.Is.
// An err that already is an *Error is returned unchanged.
func Wrap(code Code, err error, next string) *Error {
	var he *Error
	if errors.As(err, &he) {
		return he
	}
	return &Error{Code: code, Message: fmt.Sprintf("%v: %s", err, next), err: err}
}

// AsError returns err as an *Error, wrapping anything else as TOOL_FAILED.
func AsError(err error) *Error {
	if err == nil {
		return nil
	}
	return Wrap(CodeToolFailed, err, "read the file to see what it holds, then retry once; report the failure if it repeats")
}
