package hashline

// Alternate is a spelling the parser accepts although the grammar does not,
// because it can mean one thing only. Each acceptance carries a warning
// naming the canonical form, so the model learns it.
type Alternate struct {
	Written   string // an example as a model writes it
	Canonical string // what it is read as
	Rule      string
}

// Alternates is the complete list, kept here once: the parser implements
// it, the guidance quotes it, and a test holds the two together. It must
// not grow into guessing: a spelling goes here only when no other reading
// exists.
var Alternates = []Alternate{
	{Written: "PUT 3-5:", Canonical: "PUT 3.=5:", Rule: "a range written N-M, wherever a range goes"},
	{Written: "CUT 3..5", Canonical: "CUT 3.=5", Rule: "a range written N..M, wherever a range goes"},
	{Written: "3.=5:", Canonical: "PUT 3.=5:", Rule: "any locator with its colon but no PUT"},
	{Written: ">$:", Canonical: "PUT >$:", Rule: "any locator with its colon but no PUT"},
}
