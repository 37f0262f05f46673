/* The ASan limitation tests/gluster/gfapi.sh works around, with no iobench in it: a program
 * built with -fsanitize=address that loads GlusterFS's XDR library with dlopen (as iobench
 * loads libgfapi, which brings libgfxdr and libtirpc) and encodes one gf_common_rsp, as
 * gluster's RPC does. ASan's runtime intercepts xdr_int and the other XDR functions glibc used
 * to carry, and looks the real ones up once, at start-up; libtirpc was not loaded then, so the
 * interceptor calls a null pointer (SEGV, pc 0). Prints "encoded" and exits 0 when it works
 * (without ASan, or with libtirpc loaded from the start). */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	void *gfxdr = dlopen("libgfxdr.so.0", RTLD_NOW | RTLD_LOCAL);
	void *tirpc = dlopen("libtirpc.so.3", RTLD_NOW | RTLD_LOCAL);
	if (!gfxdr || !tirpc) {
		fprintf(stderr, "asan_xdr: %s\n", dlerror());
		return 2;
	}
	void (*mem_create)(void *, char *, unsigned, int);
	int (*encode)(void *, void *);
	*(void **)&mem_create = dlsym(tirpc, "xdrmem_create");
	*(void **)&encode = dlsym(gfxdr, "xdr_gf_common_rsp");
	if (!mem_create || !encode)
		return 2;
	_Alignas(16) char xdrs[128], buf[256], rsp[64]; /* XDR, the stream's memory, a zeroed response */
	memset(rsp, 0, sizeof(rsp));
	mem_create(xdrs, buf, sizeof(buf), 0 /* XDR_ENCODE */);
	if (!encode(xdrs, rsp))
		return 1;
	printf("encoded\n");
	return 0;
}
