// SPDX-License-Identifier: MIT
/*
 * Workload for demangling: nearly all time in shapes::Square::area() const, called from
 * shapes::total<shapes::Square>(); both have C++ (Itanium ABI) mangled names,
 * _ZNK6shapes6Square4areaEv and _ZN6shapes5totalINS_6SquareEEEmm. area() calls
 * shapes::done() so that it is no leaf and has a frame: a frame-pointer chain then names
 * total<Square>() as its caller.
 */
#include <cstdio>
#include <cstdlib>

namespace shapes {
static volatile unsigned long sink;

__attribute__((noinline)) void done(unsigned long v)
{
	sink = v;
}

struct Square {
	unsigned long side;
	__attribute__((noinline)) unsigned long area() const;
};

unsigned long Square::area() const
{
	for (unsigned long i = 0; i < side; i++)
		sink += i * 3;
	done(sink);
	return sink;
}

template <typename S> __attribute__((noinline)) unsigned long total(unsigned long n)
{
	S s{n};
	unsigned long t = s.area();
	return t + sink;
}
template unsigned long total<Square>(unsigned long);
} // namespace shapes

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 200;
	unsigned long acc = 0;

	for (unsigned long r = 0; r < rounds; r++)
		acc += shapes::total<shapes::Square>(1000000);
	std::printf("%lu\n", acc & 1);
	return 0;
}
