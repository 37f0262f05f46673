/* dedupe_mode=working_set's buffers (each clone's place in the set: core/run/plan.c's
 * io_place).
 *
 * dedupe_mode=working_set: the buffers a deduplicated write repeats are a working set of
 * dedupe_working_set_percentage of the job's size, made by its first unique writes; with
 * dedupe_global the clones that have it share one set, each making its own slice of it.
 * A buffer of the set is random data from a seed that its index gives, so the set takes no
 * memory and every clone can rebuild any of its buffers. */
#include "core/worker/dedupe.h"

uint64_t dedupe_seed(uint64_t key, uint64_t index)
{
	uint64_t z = key + (index + 1) * 0x9e3779b97f4a7c15ULL; /* splitmix64 */
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}
