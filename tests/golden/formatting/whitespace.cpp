void  copy_back(float*dst,const float *src ,size_t n)
{
	cudaMemcpy (dst,src,n*sizeof(float),	cudaMemcpyDeviceToHost) ;
  cudaDeviceSynchronize( ) ;   


		  cudaError_t	err=cudaGetLastError();(void)err;
}
