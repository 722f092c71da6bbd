// fixture-cxx.cc: a C++ program for the armor tests.  Without arguments it
// prints what static construction and exceptions (thrown through frames
// with destructors, caught by type, rethrown) did: the same whatever address
// it was linked at.  With "maps" it prints its own executable mappings.
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "selfmaps.h"

namespace {

struct Tracer {
	std::string name;
	explicit Tracer(const char *n) : name(n) { std::cout << "construct " << name << '\n'; }
	~Tracer() { std::cout << "destruct " << name << '\n'; }
};

Tracer global_tracer("global");

struct ArmorError : std::runtime_error {
	int code;
	explicit ArmorError(int c)
		: std::runtime_error("armor error " + std::to_string(c)), code(c) {}
};

int descend(int n)
{
	Tracer frame(n == 0 ? "frame 0" : n == 1 ? "frame 1" : "frame 2");
	if (n == 0)
		throw ArmorError(7);
	return descend(n - 1) + 1;
}

void rethrow_as_logic()
{
	try {
		descend(2);
	} catch (const ArmorError &e) {
		std::cout << "caught " << e.what() << " code " << e.code << '\n';
		throw std::logic_error(std::string("rethrown: ") + e.what());
	}
}

} // namespace

int main(int argc, char **argv)
{
	if (argc > 1 && std::strcmp(argv[1], "maps") == 0)
		return print_self_exec_maps(stdout) == 0 ? 0 : 1;

	try {
		rethrow_as_logic();
	} catch (const std::logic_error &e) {
		std::cout << "caught logic_error: " << e.what() << '\n';
	}

	std::vector<int> v{1, 2, 3};
	try {
		std::cout << v.at(3) << '\n';
	} catch (const std::out_of_range &) {
		std::cout << "caught out_of_range from the library\n";
	}

	try {
		throw 42;
	} catch (int i) {
		std::cout << "caught int " << i << '\n';
	}
	return 0;
}
