# circles.awk - reads "from to" arrows (t/house/imports) and prints each
# circle among them: every strongly connected set of more than one,
# as "circle: a b c" (Tarjan's algorithm).  Exits 1 when there is one.
{
	if ($1 != $2)
		arrow[$1, ++n[$1]] = $2
	node[$1]
	node[$2]
}

function visit(v,    i, w, set, size) {
	index_of[v] = low[v] = ++counter
	stack[++top] = v
	on_stack[v] = 1
	for (i = 1; i <= n[v]; i++) {
		w = arrow[v, i]
		if (!(w in index_of)) {
			visit(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (on_stack[w] && index_of[w] < low[v])
			low[v] = index_of[w]
	}
	if (low[v] != index_of[v])
		return
	set = ""
	size = 0
	do {
		w = stack[top--]
		on_stack[w] = 0
		set = set " " w
		size++
	} while (w != v)
	if (size > 1) {
		print "circle:" set
		found++
	}
}

END {
	for (v in node)
		if (!(v in index_of))
			visit(v)
	exit found > 0
}
