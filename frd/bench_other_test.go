//go:build !linux

package frd_test

var platformImpls []benchImpl
var platformNameImpls []benchImpl
