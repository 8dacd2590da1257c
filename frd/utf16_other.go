//go:build !amd64 || purego

package frd

// Without the amd64 assembly (or under -tags purego) names are decoded in
// Go alone.

var asciiImpls = []asciiImpl{{"go", asciiGo}}

var asciiBlocks = asciiGo
