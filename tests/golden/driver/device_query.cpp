#include <cuda.h>
#include <iostream>

void list_devices()
{
    int count = 0, version = 0;
    cuInit(0);
    cuDriverGetVersion(&version);
    cuDeviceGetCount(&count);
    for (int i = 0; i < count; ++i) {
        CUdevice dev;
        char name[256];
        size_t mem = 0;
        int sms = 0, major = 0, minor = 0;
        cuDeviceGet(&dev, i);
        cuDeviceGetName(name, sizeof(name), dev);
        cuDeviceTotalMem(&mem, dev);
        cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
        cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
        cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
        std::cout << name << ": " << sms << " SMs, " << mem << " bytes, cc "
                  << major << "." << minor << " (driver " << version << ")\n";
    }
}
