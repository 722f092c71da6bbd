#!/bin/sh
# A message is one literal in the source, so that grep finds the code
# that printed it (STYLE.md): no call that makes a message (the library's
# chstk__error, err(3) and warn(3), elfscan's batch_add and report_error,
# fprintf to stderr) splits its format across lines as adjacent string
# literals. Texts that are not messages (usage, SARIF rule texts, records)
# may be split; a usage line ends in \n, which marks it.
. "$top_srcdir/tests/lib.sh"
need python3

split=$(cd "$top_srcdir" && python3 - lib/*.c src/*/*.c <<'PY'
import re, sys
sinks = re.compile(r'\b(chstk__error|chstk__syserror|warnx?|errx?|batch_add|'
                   r'report_error|fail|die|fprintf\s*\(\s*stderr)\s*\(')
for path in sys.argv[1:]:
    text = open(path, encoding='utf-8', errors='replace').read()
    for m in sinks.finditer(text):
        depth, j, instr = 1, m.end(), False
        while j < len(text) and depth:
            c = text[j]
            if instr:
                if c == '\\':
                    j += 1
                elif c == '"':
                    instr = False
            elif c == '"':
                instr = True
            elif c == '(':
                depth += 1
            elif c == ')':
                depth -= 1
            j += 1
        call = text[m.start():j]
        if re.search(r'(?<!\\n)"\s*\n\s*"', call):
            line = text.count('\n', 0, m.start()) + 1
            print('%s:%d: %s' % (path, line, call.splitlines()[0].strip()))
PY
)
expect "no message is split across lines of source" "$split" ""
# The hooks' Perl: a message passed as pieces may hold variables, but no
# literal of it ends a line to go on as the next one.
split=$(cd "$top_srcdir" && python3 - packaging/*.pl <<'PY'
import re, sys
sinks = re.compile(r'(->\{(error|warning|note)\}->|\$say->|->fatal|\bdie\b|\bwarn\b)\s*\(')
for path in sys.argv[1:]:
    text = open(path, encoding='utf-8', errors='replace').read()
    for m in sinks.finditer(text):
        end = text.find(';', m.end())
        call = text[m.start():end]
        if re.search(r'[\'"]\s*,\s*\n\s*[\'"]', call):
            line = text.count('\n', 0, m.start()) + 1
            print('%s:%d: %s' % (path, line, call.splitlines()[0].strip()))
PY
)
expect "no message of the hooks is split across lines" "$split" ""
expect "the check reads the hooks" \
    "$(cd "$top_srcdir" && grep -c -- '->{error}->(' packaging/hook-policy.pl | awk '$1 > 2 { print "yes" }')" yes
expect "the check reads the sources" \
    "$(cd "$top_srcdir" && grep -c chstk__error lib/hardening.c | awk '$1 > 5 { print "yes" }')" yes
finish
