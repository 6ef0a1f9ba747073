package tour

// Queue holds the cities whose "don't look" bit is off (Bentley 1992): a
// circular FIFO in which a city stands at most once.
type Queue struct {
	city       []int32
	in         []bool
	head, size int
}

// NewQueue returns an empty queue for the cities 0..n-1.
func NewQueue(n int) Queue {
	return Queue{city: make([]int32, n), in: make([]bool, n)}
}

// Push queues c unless it is queued already (turns its don't-look bit
// off).
func (q *Queue) Push(c int32) {
	if q.in[c] {
		return
	}
	q.in[c] = true
	t := q.head + q.size
	if t >= len(q.city) {
		t -= len(q.city)
	}
	q.city[t] = c
	q.size++
}

// Pop takes the oldest queued city; the queue must not be empty.
func (q *Queue) Pop() int32 {
	c := q.city[q.head]
	q.head++
	if q.head == len(q.city) {
		q.head = 0
	}
	q.size--
	q.in[c] = false
	return c
}

// Len is the number of queued cities.
func (q *Queue) Len() int { return q.size }
