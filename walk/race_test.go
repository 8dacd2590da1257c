//go:build race

package walk

// raceEnabled: the race detector changes what allocates.
const raceEnabled = true
