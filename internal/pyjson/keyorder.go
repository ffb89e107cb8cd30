package pyjson

import "slices"

// Key orders: Python keeps a dict's keys in insertion order, which
// json.loads makes the text's order, and every json.dumps of the dict (a
// tool result a model reads) writes them so; a Go map keeps no order.
// [DecodeOrdered] records the order of the objects it makes, compactly:
// the records of a table share a set of keys and nearly always its order,
// so an order is kept once per set of keys (the first object's with that
// set), and by object only for the objects whose order differs from it.

// KeyOrders are the key orders of the objects one decode made. Objects of
// fewer than two keys have no order to keep and are left out.
type KeyOrders struct {
	// Sets maps the [KeySetHash] of a set of keys to the order of the
	// first object that had that set.
	Sets map[uint64][]string
	// Objects are the objects whose order is not their set's in Sets, in
	// decoding order.
	Objects []ObjectOrder
}

// ObjectOrder is the key order of one object.
type ObjectOrder struct {
	Map  map[string]any
	Keys []string
}

// KeySetHash is the hash of the set of m's keys that [KeyOrders.Sets] is
// keyed by: the sum of their [KeyHash]es, which does not depend on the
// order they are read in. Two sets may share a hash: an order found by it
// is checked against the object's keys.
func KeySetHash(m map[string]any) uint64 {
	var sum uint64
	for k := range m {
		sum += KeyHash(k)
	}
	return sum
}

// nextSeq extends the order-dependent hash of a key sequence by a key's
// hash. A sequence found by its hash is compared with the keys, so the
// hash need only be quick.
func nextSeq(seq, keyHash uint64) uint64 { return (seq ^ keyHash) * 0x100000001b3 }

// keySeq is a sequence of keys met while decoding: its keys, and whether
// it is its set's order in KeyOrders.Sets.
type keySeq struct {
	hash  uint64
	keys  []string
	first bool
}

// keySeqSeed starts the order-dependent hash of a key sequence.
const keySeqSeed = 0x9e3779b97f4a7c15

// noteOrder records the order of m, whose keys (in text order, each once)
// are keys, with the order-dependent hash seq and the set hash set. The
// last sequence met at each depth is tried first: the records of a table
// follow one another.
func (d *decoder) noteOrder(m map[string]any, keys []string, seq, set uint64, depth int) {
	var ks *keySeq
	if depth < hintDepths {
		if last := d.lastSeq[depth]; last != nil && last.hash == seq {
			ks = last
		}
	}
	if ks == nil {
		ks = d.seqs[seq]
		if ks == nil {
			ks = d.newSeq(keys, seq, set)
		}
		if depth < hintDepths {
			d.lastSeq[depth] = ks
		}
	}
	if !slices.Equal(ks.keys, keys) { // two sequences with one hash: keep this one whole
		d.orders.Objects = append(d.orders.Objects, ObjectOrder{Map: m, Keys: slices.Clone(keys)})
		return
	}
	if !ks.first {
		d.orders.Objects = append(d.orders.Objects, ObjectOrder{Map: m, Keys: ks.keys})
	}
}

// newSeq registers a key sequence met for the first time.
func (d *decoder) newSeq(keys []string, seq, set uint64) *keySeq {
	ks := &keySeq{hash: seq, keys: slices.Clone(keys)}
	if prev, ok := d.orders.Sets[set]; !ok {
		d.orders.Sets[set] = ks.keys
		ks.first = true
	} else if slices.Equal(prev, ks.keys) {
		ks.keys, ks.first = prev, true
	}
	d.seqs[seq] = ks
	return ks
}

// DecodeOrdered decodes data as [Decode] does and also returns the key
// orders of the objects it made; with printed it fingerprints the value
// too, as [DecodePrinted] does (prints nil when that cannot be had). A key
// given twice in one object keeps its first position, as in the dict
// json.loads builds.
func DecodeOrdered(data []byte, printed bool) (v any, prints *Prints, orders *KeyOrders, err error) {
	d := decoder{data: data, printing: printed, ordering: true,
		orders: &KeyOrders{Sets: map[uint64][]string{}}, seqs: map[uint64]*keySeq{}}
	if v, err = d.decode(); err != nil {
		return nil, nil, nil, err
	}
	if printed && !d.dup {
		prints = &Prints{Root: d.last, Members: d.members}
	}
	return v, prints, d.orders, nil
}
