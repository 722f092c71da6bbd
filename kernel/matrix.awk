# matrix.awk: print the RESULT lines of check-kernel.sh as a table, one row
# per check, one column per boot and level; exit 1 if any check failed.
#
# Input:  RESULT <boot> <status> <scenario> <level> <subject> <aspect> <want> <got>
# A cell shows what the check wants; a failed one shows want!got.
$1 == "RESULT" {
	boot = $2; status = $3; level = $5
	col = boot ":" level
	if (!(col in colseen)) {
		colseen[col] = 1
		cols[++ncols] = col
		label = boot
		key = ncols
		if (boot == "switch") {
			label = "run" level
			key = 100 + level
		} else if (boot ~ /^L[0-9]+$/) {
			key = substr(boot, 2) + 0
			if (substr(boot, 2) != level)
				label = boot ">" level
		}
		collabel[col] = label
		colkey[col] = key
	}
	row = $6 " " $7
	if (!(row in rowseen)) {
		rowseen[row] = 1
		rows[++nrows] = row
	}
	cell = $8
	if (status == "FAIL") {
		cell = $8 "!" $9
		fails[++nfails] = "FAIL " boot " level " level ": " $6 " " $7 \
			": want " $8 ", got " $9
	} else if (status == "SKIP") {
		cell = "skip"
		skips[++nskips] = "SKIP " boot " level " level ": " $6 " " $7 \
			": " $9
	}
	cells[row, col] = cell
	count[status]++
}
END {
	# Boot levels first, in order, then the run-time levels.
	for (i = 2; i <= ncols; i++)
		for (j = i; j > 1 && colkey[cols[j - 1]] > colkey[cols[j]]; j--) {
			t = cols[j]; cols[j] = cols[j - 1]; cols[j - 1] = t
		}
	w0 = length("check")
	for (r = 1; r <= nrows; r++)
		if (length(rows[r]) > w0)
			w0 = length(rows[r])
	for (c = 1; c <= ncols; c++) {
		w[c] = length(collabel[cols[c]])
		for (r = 1; r <= nrows; r++)
			if (length(cells[rows[r], cols[c]]) > w[c])
				w[c] = length(cells[rows[r], cols[c]])
	}
	printf "%-" w0 "s", "check"
	for (c = 1; c <= ncols; c++)
		printf "  %-" w[c] "s", collabel[cols[c]]
	printf "\n"
	for (r = 1; r <= nrows; r++) {
		printf "%-" w0 "s", rows[r]
		for (c = 1; c <= ncols; c++) {
			cell = cells[rows[r], cols[c]]
			printf "  %-" w[c] "s", (cell == "" ? "." : cell)
		}
		printf "\n"
	}
	print ""
	print "Columns: L<n> booted with exec-shield=<n> (L7>2: an invalid 7 keeps 2);"
	print "run<n>: level <n> set at run time. A cell is what the seed's rules"
	print "want; '.' means the check does not apply; want!got marks a failure."
	print ""
	for (i = 1; i <= nskips; i++)
		print skips[i]
	for (i = 1; i <= nfails; i++)
		print fails[i]
	printf "check-kernel: %d checks: %d PASS, %d FAIL, %d SKIP\n",
		count["PASS"] + count["FAIL"] + count["SKIP"], count["PASS"] + 0,
		count["FAIL"] + 0, count["SKIP"] + 0
	if (count["FAIL"] > 0 || count["PASS"] == 0)
		exit 1
}
