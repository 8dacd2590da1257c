module github.com/pbednarcik/flexreaddir/bench

go 1.26.0

replace github.com/pbednarcik/flexreaddir => ../

require (
	github.com/charlievieth/fastwalk v1.0.14
	github.com/karrick/godirwalk v1.17.0
	github.com/pbednarcik/flexreaddir v0.0.0
	github.com/saracen/walker v0.1.3
)

require (
	golang.org/x/sync v0.0.0-20220601150217-0de741cfad7f // indirect
	golang.org/x/sys v0.50.0 // indirect
)
