//go:build !linux

package du

func isTmpfs(string) bool { return false }
