/*
 * Copyright (c) 2026      The coll/shmcico authors.  All rights reserved.
 * $COPYRIGHT$
 *
 * Additional copyrights may follow
 *
 * $HEADER$
 *
 * memcpy against a copy with streaming stores, cold: a fresh place in a 512 MiB pool every time (gcc -O2 -msse2 nt.c; ./a.out BYTES)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
static void ntcopy(char*d,const char*s,size_t n){for(size_t i=0;i<n;i+=64){__m128i a=_mm_loadu_si128((const __m128i*)(s+i)),b=_mm_loadu_si128((const __m128i*)(s+i+16)),c=_mm_loadu_si128((const __m128i*)(s+i+32)),e=_mm_loadu_si128((const __m128i*)(s+i+48));_mm_stream_si128((__m128i*)(d+i),a);_mm_stream_si128((__m128i*)(d+i+16),b);_mm_stream_si128((__m128i*)(d+i+32),c);_mm_stream_si128((__m128i*)(d+i+48),e);}_mm_sfence();}
int main(int argc,char**argv){
  size_t n=strtoull(argv[1],0,0); int reps=12;
  size_t pool=512<<20; char *a=aligned_alloc(4096,pool), *b=aligned_alloc(4096,pool); memset(a,1,pool); memset(b,2,pool);
  for(int mode=0;mode<2;mode++){ double sum=0,best=1e9; size_t off=0;
  for(int r=0;r<reps;r++){ off=(off+n+4096)%(pool-n-4096); off&=~4095UL;
    double t=now(); if(mode) ntcopy(b+off,a+off,n); else memcpy(b+off,a+off,n); t=now()-t; sum+=t; if(t<best)best=t;}
  printf("%s n=%zu best %.1f us mean %.1f us\n",mode?"nt":"memcpy",n,best*1e6,sum/reps*1e6);}
  return 0;}
