// node-llama-cpp's optional CUDA and Vulkan builds (~620 MB on Linux x64; macOS keeps its Metal build). Atrium runs uploaded models on the CPU
// with the prebuilt @node-llama-cpp/<platform> package, so package-lock.json leaves these out and `npm ci` never
// installs them (README, "AI"). Shared by prune-gpu-binaries.mjs and its test.
export const GPU_BINARY = /^node_modules\/@node-llama-cpp\/[^/]*-(cuda|cuda-ext|vulkan)$/;
