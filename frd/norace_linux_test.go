//go:build !race

package frd

const raceEnabled = false
