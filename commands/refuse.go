package commands

import "hashline-ls/hashline"

// Refuse is the result of a call that a front end turns down before any
// command runs (an argument its protocol does not take), rendered like
// every other result so the model reads it the same way.
func Refuse(code hashline.Code, field, message string) *ErrorResult {
	res := errorResult(&hashline.Error{Code: code, Message: message, Details: hashline.Details{Field: field}})
	render(res)
	return res
}
