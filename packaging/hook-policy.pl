# hook-policy.pl - the policy of both package hooks, brp-chstk (rpm) and
# dh_chstk (debhelper): which ELF images of a tree are refused, fixed or
# reported, and what each hook says about them. make writes this file into
# both hooks in place of their @hook_policy@ line, so that each installed
# hook is one self-contained script and the two can never disagree; a hook
# keeps only what is its build system's own (where the tree and the allowed
# globs come from, how it prints, how it runs chstk).
#
# A hook makes one ChstkHook object with:
#   error, warning, note
#            subs that print a message (a list of strings, joined): error
#            for what fails the build, warning for what is only reported,
#            note for what was done or allowed
#   mark     a sub given the files to mark noexec; it runs chstk -E on them
#            and returns false if it did nothing on purpose (a dry run)
#   verbose  optional: a sub given each command line before it is run
#   strip    true to name files relative to the tree (rpm's build root),
#            false to name them by the path given (debhelper's debian/P)
#   allowed  the words after "executable stack allowed" that say by what
#   tree     what the tree is called in a message ("the build root")
#   fix_by   the hook's words for the fix policy ("--policy=fix")
#   allow_by the hook's words for where globs are allowed ("%chstk_allow")
#   refused  a sub given, under fail, the message that counts the refused
#            images and says how to fix them: the build first, then the
#            fix policy, then an allowance
#   profiles optional: an array of elfscan --profile names, each a
#            distribution's build flags whose promises every image must
#            keep (see bad_profile)
#   compare_with
#            optional: the previous build's package (or tree); each
#            defence an image lost since it is refused under fail and fix
#            (no marking restores it), reported under warn
# and calls check(ROOT, POLICY, REQUIRE, GLOBS...), REQUIRE an array of
# the defences required, words of elfscan --require ([GLOB=]PROPS, the
# GLOB an installed path; none by default), GLOBS the installed paths
# allowed an executable stack: elfscan matches both below ROOT (a glob
# that allowed nothing is a warning), which returns the exit status:
# 0 nothing refused; 1 an image with an executable stack (under fail), an
# image lacking a required defence (under fail and fix: chstk cannot add
# it), or a file that is not sound ELF or that chstk could not mark; 2 a
# file or directory elfscan could not read. A tool that cannot run exits 2
# at once.
package ChstkHook;
use strict;
use warnings;
no warnings 'exec';	# a tool that cannot run is reported once, by fatal()
use JSON::PP;

our $ELFSCAN = $ENV{CHSTK_HOOK_ELFSCAN} || '@bindir@/elfscan';
our $CHSTK = $ENV{CHSTK_HOOK_CHSTK} || '@bindir@/chstk';

# The findings of elfscan --require: defences the compiler and linker
# build in, which chstk cannot add. The properties that give them.
my %HARDENING = map { $_ => 1 } qw(no-pie no-full-relro no-canary no-fortify
    unsafe-rpath no-ibt no-shstk no-bti no-pac not-stripped no-relro);
my %PROPS = map { $_ => 1 } qw(pie relro canary fortify rpath ibt shstk bti
    pac gnu-relro);

# Findings that are not about the stack: chstk cannot change a W^X
# segment, a malformed file is reported as unreadable, and the defences
# required are reported on their own.
my %OTHER = (map({ $_ => 1 } qw(wx-segment malformed)), %HARDENING);

sub new {
	my ($class, %h) = @_;

	return bless \%h, $class;
}

# The message for a policy that is not one of the three, or undef.
sub bad_policy {
	my ($policy) = @_;

	return undef if $policy =~ /^(fail|fix|warn)$/;
	return "unknown policy '$policy': want fail, fix or warn";
}

# The message for a word of REQUIRE that is not [GLOB=]PROPS, or undef.
# The hooks run before the build strips the files (so that the detached
# debugging files copy the marking they give): stripped cannot be judged.
sub bad_require {
	for my $word (@_) {
		my $props = $word =~ /=([^=]*)$/ ? $1 : $word;
		my @bad = grep { !$PROPS{$_} } split(/,/, $props, -1);
		return "cannot require 'stripped' in '$word': the hook runs before the build strips the files"
			if @bad && $bad[0] eq 'stripped';
		return "unknown defence '$bad[0]' in '$word': want " .
		    join(', ', sort keys %PROPS) if @bad;
	}
	return undef;
}

# The message for a profile name elfscan does not know, or undef: elfscan
# keeps the profiles, and says what is wrong with a name (with the close
# one), as it would on its command line.
sub bad_profile {
	for my $name (@_) {
		my $pid = open(my $out, '-|') // return "cannot run $ELFSCAN: $!";
		if ($pid == 0) {
			open(STDERR, '>&', \*STDOUT);
			open(STDOUT, '>', '/dev/null');
			exec($ELFSCAN, '--list', "--profile=$name") or exit 127;
		}
		my @said = <$out>;
		close $out;
		next if $? == 0;
		return "$ELFSCAN: cannot run" if $? >> 8 == 127 && !@said;
		chomp(my $why = $said[0] // "$ELFSCAN: --profile=$name failed");
		$why =~ s/^elfscan: //;
		return $why;
	}
	return undef;
}

# An operational error: nothing more can be checked.
sub fatal {
	my ($h, @msg) = @_;

	$h->{error}->(@msg);
	exit 2;
}

# elfscan's --require options for the words [GLOB=]PROPS, each GLOB an
# installed path: elfscan matches it below the tree it scans.
sub require_options {
	return map { ('--require', $_) } @_;
}

# elfscan's options for the globs allowed, installed paths: elfscan matches
# them below the tree it scans, and says which allowed nothing.
sub allow_options {
	return map { "--allow-pattern=$_" } @_;
}

# elfscan's records of every ELF image under the tree, the allowed globs
# that allowed nothing, and its exit status (0, 1 or 2: any other is its
# failure, and fatal). Names are bytes, not necessarily UTF-8: they are
# decoded as such.
sub scan {
	my ($h, $root) = @_;
	my $json = JSON::PP->new;
	my @args = ('--no-progress', '--format=json',
	    @{$h->{allow_options}}, @{$h->{require_options} // []},
	    map { "--profile=$_" } @{$h->{profiles} // []});
	my (@records, @unused);

	$h->{verbose}->("$ELFSCAN @args $root") if $h->{verbose};
	open(my $out, '-|', $ELFSCAN, @args, '--', $root) or
		$h->fatal("$ELFSCAN: cannot run: $!");
	while (<$out>) {
		my $r = $json->decode($_);
		if (exists $r->{unused_allow}) {
			push @unused, $r->{unused_allow}{pattern};
		} else {
			push @records, $r;
		}
	}
	close $out;
	$h->fatal("$ELFSCAN: killed by signal ", $? & 127) if $? & 127;
	$h->fatal("$ELFSCAN: failed with exit status ", $? >> 8)
		if $? >> 8 > 2;
	return ($? >> 8, \@unused, @records);
}

sub name_of {
	my ($h, $root, $r) = @_;
	my $name = $h->{strip} ? substr($r->{path}, length $root) : $r->{path};

	return defined $r->{member} ? "$name!$r->{member}" : $name;
}

# Sorts the records: images with an executable stack that is not allowed
# (bad), allowed ones, ones with a W^X segment, ones lacking a required
# defence (weak), and files not read as ELF.
sub classify {
	my %c = (bad => [], allowed => [], wx => [], weak => [], unread => []);

	for my $r (@_) {
		my @findings = @{$r->{findings}};
		if (exists $r->{error}) {
			push @{$c{unread}}, $r;
			next;
		}
		push @{$c{wx}}, $r if grep { $_ eq 'wx-segment' } @findings;
		push @{$c{weak}}, $r if grep { $HARDENING{$_} } @findings;
		if ($r->{allowed}) {
			push @{$c{allowed}}, $r;
		} elsif (grep { !$OTHER{$_} } @findings) {
			push @{$c{bad}}, $r;
		}
	}
	return \%c;
}

# Why an image has an executable stack, in elfscan's words.
sub detail {
	my ($r) = @_;
	my @stack = grep { !$OTHER{$_} } @{$r->{findings}};

	return @stack ? "$r->{why} [" . join(', ', @stack) . ']' : $r->{why};
}

sub report {
	my ($h, $root, $c, @unused) = @_;

	$h->{error}->($h->name_of($root, $_), ": cannot read: $_->{error}")
		for @{$c->{unread}};
	$h->{warning}->($h->name_of($root, $_),
	    ': writable and executable segment: not a stack marking, left alone')
	    for @{$c->{wx}};
	$h->{note}->($h->name_of($root, $_), ': executable stack allowed',
	    $h->{allowed}, ': ', detail($_)) for @{$c->{allowed}};
	$h->{warning}->($_,
	    ': unused allowed glob: it matched no file with an executable stack')
	    for @unused;
}

# Marks every file of the records noexec, then scans again: each must now
# be clean. Returns the number of files that are not.
sub fix {
	my ($h, $root, @bad) = @_;
	my %seen;
	my @files = grep { !$seen{$_}++ } map { $_->{path} } @bad;

	# chstk reports its own failures; the scan after it counts them.
	$h->{mark}->(@files) or return 0;
	my ($status, undef, @after) = $h->scan($root);
	my %left = map { $_->{path} => 1 } @{classify(@after)->{bad}};
	for my $r (@bad) {
		my $name = $h->name_of($root, $r);
		if ($left{$r->{path}}) {
			$h->{error}->($name,
			    ': executable stack that chstk -E did not mark noexec: ',
			    detail($r));
		} else {
			$h->{note}->($name,
			    ': executable stack marked noexec (was: ',
			    detail($r), ')');
		}
	}
	return scalar(keys %left) + ($status >= 2);
}

# Names the images lacking a required defence: an error, but under warn.
# Returns how many refuse the build.
sub weak {
	my ($h, $root, $policy, @weak) = @_;
	my $say = $policy eq 'warn' ? $h->{warning} : $h->{error};

	$say->($h->name_of($root, $_), ': lacks required hardening: ',
	    join(', ', grep { $HARDENING{$_} } @{$_->{findings}})) for @weak;
	return $policy eq 'warn' ? 0 : scalar @weak;
}

# What fail says of N refused images: the real fix, in the build, first;
# marking them noexec is the stopgap, an allowance the last resort.
sub refusal {
	my ($h, $n) = @_;
	my ($images, $them) = $n == 1 ? ('1 ELF image', 'it') :
	    ("$n ELF images", 'them');

	return sprintf('%s with an executable stack: fix the build: give each assembly source a .note.GNU-stack section (or assemble with -Wa,--noexecstack) and link without -z execstack; until then %s marks %s noexec, or %s allows %s',
	    $images, $h->{fix_by}, $them, $h->{allow_by}, $them);
}

# What got worse since the previous build: elfscan --diff OLD ROOT, with
# the allowed globs, which elfscan matches on both sides (an allowed
# executable stack is not compared). Returns how many regressions refuse
# the build, or 2 when elfscan could not compare.
sub regressions {
	my ($h, $root, $policy) = @_;
	my $json = JSON::PP->new;
	my $say = $policy eq 'warn' ? $h->{warning} : $h->{error};
	my @args = ('--no-progress', '--format=json', @{$h->{allow_options}},
	    '--diff');
	my $n = 0;

	$h->{verbose}->("$ELFSCAN @args $h->{compare_with} $root")
		if $h->{verbose};
	open(my $out, '-|', $ELFSCAN, @args, '--', $h->{compare_with}, $root)
		or $h->fatal("$ELFSCAN: cannot run: $!");
	while (<$out>) {
		my $r = $json->decode($_);
		next unless ($r->{diff} // '') eq 'regression';
		$say->(sprintf('%s: %s since %s (%s: was %s, now %s)', $r->{path},
		    $r->{why}, $h->{compare_with}, $r->{property},
		    $r->{was} // 'absent', $r->{now}));
		$n++;
	}
	close $out;
	$h->fatal("$ELFSCAN: killed by signal ", $? & 127) if $? & 127;
	if ($? >> 8 >= 2) {
		$h->{error}->("$root: elfscan could not compare it with $h->{compare_with}");
		return 2;
	}
	return $policy eq 'warn' ? 0 : $n;
}

sub check {
	my ($h, $root, $policy, $require, @globs) = @_;
	my $status = $h->check_tree($root, $policy, $require, @globs);

	return $status if !defined $h->{compare_with} || $status >= 2;
	my $worse = $h->regressions($root, $policy);
	return $worse >= 2 ? 2 : $status || $worse ? 1 : 0;
}

sub check_tree {
	my ($h, $root, $policy, $require, @globs) = @_;

	$root =~ s{/+$}{};
	$h->{require_options} = [require_options(@$require)];
	$h->{allow_options} = [allow_options(@globs)];
	my ($status, $unused, @records) = $h->scan($root);
	my $c = classify(@records);
	my @bad = @{$c->{bad}};
	my $unread = @{$c->{unread}};
	$h->report($root, $c, @$unused);
	if ($status >= 2) {
		$h->{error}->("$root: elfscan could not read every file of $h->{tree}");
		return 2;
	}
	my $weak = $h->weak($root, $policy, @{$c->{weak}});
	if ($policy eq 'fix') {
		return (@bad ? $h->fix($root, @bad) : 0) || $unread ||
		    $weak ? 1 : 0;
	}
	my $say = $policy eq 'warn' ? $h->{warning} : $h->{error};
	$say->($h->name_of($root, $_), ': executable stack: ', detail($_))
		for @bad;
	if ($policy eq 'warn') {
		return $unread ? 1 : 0;
	}
	$h->{refused}->($h->refusal(scalar @bad)) if @bad;
	return @bad || $unread || $weak ? 1 : 0;
}

1;
