// Does hypervisor steal time line up with the slow runs? Times a 16 MiB memcpy ITERS times and
// reads this CPU's steal ticks (/proc/stat, 10 ms each) around each; prints how many runs were
// over 3x the median and how many of those saw steal, against the rate for all runs.
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e6+t.tv_nsec/1e3;}
static long steal(int cpu){FILE*f=fopen("/proc/stat","r");char line[512],name[16];long v[10];snprintf(name,sizeof name,"cpu%d ",cpu);long s=-1;
 while(fgets(line,sizeof line,f)) if(!strncmp(line,name,strlen(name))){sscanf(line+strlen(name),"%ld %ld %ld %ld %ld %ld %ld %ld",&v[0],&v[1],&v[2],&v[3],&v[4],&v[5],&v[6],&v[7]);s=v[7];break;}
 fclose(f);return s;}
static int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){size_t bytes=strtoull(argv[1],0,0);int iters=atoi(argv[2]);int cpu=sched_getcpu();
 char*a=malloc(bytes),*b=malloc(bytes);memset(a,1,bytes);memset(b,2,bytes);
 double*t=malloc(sizeof(double)*iters);long*st=malloc(sizeof(long)*iters);
 for(int i=0;i<iters;i++){long s0=steal(cpu);double s=now();memcpy(b,a,bytes);a[i%bytes]^=b[(i*7)%bytes];t[i]=now()-s;st[i]=steal(cpu)-s0;}
 double*s=malloc(sizeof(double)*iters);memcpy(s,t,sizeof(double)*iters);qsort(s,iters,sizeof(double),cmp);double med=s[iters/2];
 int slow=0,slow_steal=0,all_steal=0;for(int i=0;i<iters;i++){if(st[i]>0)all_steal++;if(t[i]>3*med){slow++;if(st[i]>0)slow_steal++;}}
 printf("cpu %d, %zu B x %d: median %.0f us, max %.0f us (%.1fx); runs with steal: %d of %d (%.1f%%); slow runs (>3x): %d, of which with steal: %d\n",cpu,bytes,iters,med,s[iters-1],s[iters-1]/med,all_steal,iters,100.0*all_steal/iters,slow,slow_steal);
 return 0;}
