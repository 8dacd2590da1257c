package snapshot

import (
	"context"
	"io"
	"runtime"
	"sync"
)

// prefetchWindow is how many directories of the snapshot are read ahead
// of the compare, and checked against the tree by the workers meanwhile:
// memory holds at most this many directories' entries, twice (as
// recorded and as found), beside those of the path being compared.
const prefetchWindow = 64

// job is one directory of the snapshot to check against the tree.
type job struct {
	rec   *Dir
	done  chan struct{} // closed once items or err is set
	items []item
	err   error // the directory could not be checked
}

// prefetch reads the snapshot ahead in a goroutine of its own and hands
// each directory to the workers to check, and to the compare, in order.
type prefetch struct {
	order  chan *pending // to the compare, in the snapshot's order
	jobs   chan *job     // to the workers
	cancel context.CancelFunc
	wg     sync.WaitGroup
	err    error // the reader's, set before order is closed
}

// startPrefetch starts the reader and workers goroutines, each running
// check on the jobs it takes (ctx done: it still closes done).
func startPrefetch(ctx context.Context, rd *Reader, workers int, check func(ctx context.Context, j *job, worker int)) *prefetch {
	ctx, cancel := context.WithCancel(ctx)
	p := &prefetch{order: make(chan *pending, prefetchWindow), jobs: make(chan *job, prefetchWindow), cancel: cancel}
	p.wg.Add(1 + workers)
	go p.read(ctx, rd)
	for w := range workers {
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				if j.err = ctx.Err(); j.err == nil {
					check(ctx, j, w)
				}
				close(j.done)
				runtime.Gosched()
			}
		}()
	}
	return p
}

// read decodes directories until the end, an error or ctx's end.
func (p *prefetch) read(ctx context.Context, rd *Reader) {
	defer p.wg.Done()
	defer close(p.jobs)
	defer close(p.order)
	for {
		d, err := rd.Next()
		if err != nil {
			if err != io.EOF {
				p.err = err
			}
			return
		}
		j := &job{rec: d, done: make(chan struct{})}
		select {
		case p.order <- &pending{rec: d, job: j}:
		case <-ctx.Done():
			return
		}
		select {
		case p.jobs <- j:
		case <-ctx.Done():
			return
		}
	}
}

// stream is the prefetched directories as a stream.
func (p *prefetch) stream() *stream {
	return &stream{next: func() (*pending, error) {
		q, ok := <-p.order
		if !ok {
			if p.err != nil {
				return nil, p.err
			}
			return nil, io.EOF
		}
		return q, nil
	}}
}

// stop ends the goroutines and waits for them.
func (p *prefetch) stop() {
	p.cancel()
	for range p.order {
		// let a reader blocked on a full order see ctx's end
	}
	p.wg.Wait()
}
