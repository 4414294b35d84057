# CMake variables the port cannot follow, or that come from elsewhere.
set_target_properties(app PROPERTIES CUDA_ARCHITECTURES "${PARENT_ARCHS}")
target_compile_options(app PRIVATE -arch=${ARCH_FROM_COMMAND_LINE})

set(SM 80)
if(SM STREQUAL "80")
  add_definitions(-DAMPERE)
endif()
target_compile_options(app PRIVATE -arch=sm_${SM})

function(add_arch target arch)
  target_compile_options(${target} PRIVATE -gencode arch=compute_${arch},code=sm_${arch})
endfunction()

execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader OUTPUT_VARIABLE DETECTED)
set(CMAKE_CUDA_ARCHITECTURES ${DETECTED})
