MemcpyHtoD,0x00007f1b5e000000,4096
MemcpyHtoD,0x00007f1b5e010000,1024
kernel-1.traceg
kernel-2.traceg
