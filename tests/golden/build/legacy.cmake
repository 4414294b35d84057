# FindCUDA era: the port needs a hand here.
FIND_PACKAGE(CUDA 11.0 REQUIRED)
list(APPEND CUDA_NVCC_FLAGS -arch=sm_70 --expt-relaxed-constexpr)
cuda_add_executable(solver solver.cu)
target_link_libraries(solver CUDA::cusolver CUDA::cusparse CUDA::nvToolsExt)
#[[ A bracket comment:
    set(CMAKE_CUDA_ARCHITECTURES 70)
]]
if(CUDA_FOUND AND CMAKE_CUDA_COMPILER_ID STREQUAL "NVIDIA")
  target_compile_options(solver PRIVATE $<$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>:-Xptxas=-v>)
  message(STATUS "CUDA found") # CUDA::cublas in a comment
endif()
