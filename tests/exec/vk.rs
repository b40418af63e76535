//! A minimal Vulkan compute harness (ash): one device, one compute queue,
//! and `Gpu::run`, which binds host-visible buffers (and push constants) to
//! a compute pipeline built from SPIR-V words, dispatches (1, 1, 1), waits,
//! and returns every buffer's bytes.
//!
//! Target-neutral: it only sees SPIR-V words, an entry point name and the
//! buffers, so every target (our SPIR-V, glslang's, DXC's, Slang's) runs
//! through the same code.

use std::ffi::{c_char, CString};

use ash::vk;

/// How long one dispatch may run before the test calls it hung.
pub const FENCE_TIMEOUT_SECS: u64 = 120;
const FENCE_TIMEOUT_NS: u64 = FENCE_TIMEOUT_SECS * 1_000_000_000;

/// Device features a test module may need.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub shader_float16: bool,
    pub storage_buffer16: bool,
    pub uniform_and_storage_buffer16: bool,
    pub storage_push_constant16: bool,
    pub uniform_buffer_standard_layout: bool,
    pub scalar_block_layout: bool,
}

impl Features {
    /// The names of the features in `self` that `have` lacks.
    pub fn missing(&self, have: &Features) -> Vec<&'static str> {
        let pairs = [
            (self.shader_float16, have.shader_float16, "shaderFloat16"),
            (
                self.storage_buffer16,
                have.storage_buffer16,
                "storageBuffer16BitAccess",
            ),
            (
                self.uniform_and_storage_buffer16,
                have.uniform_and_storage_buffer16,
                "uniformAndStorageBuffer16BitAccess",
            ),
            (
                self.storage_push_constant16,
                have.storage_push_constant16,
                "storagePushConstant16",
            ),
            (
                self.uniform_buffer_standard_layout,
                have.uniform_buffer_standard_layout,
                "uniformBufferStandardLayout",
            ),
            (
                self.scalar_block_layout,
                have.scalar_block_layout,
                "scalarBlockLayout",
            ),
        ];
        pairs
            .iter()
            .filter(|(need, has, _)| *need && !*has)
            .map(|(_, _, name)| *name)
            .collect()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    Uniform,
    Storage,
}

/// One buffer bound at (set, binding), with its initial contents.
#[derive(Clone, Debug)]
pub struct BufferSpec {
    pub set: u32,
    pub binding: u32,
    pub kind: BufferKind,
    pub data: Vec<u8>,
}

/// One dispatch.
pub struct Job<'a> {
    pub words: &'a [u32],
    pub entry: &'a str,
    pub buffers: &'a [BufferSpec],
    /// Push-constant bytes (compute stage), if any.
    pub push_constants: Option<&'a [u8]>,
}

pub struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    device: ash::Device,
    queue: vk::Queue,
    command_pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    /// "name (type, Vulkan x.y, driver)".
    pub description: String,
    pub features: Features,
    pub max_sets: u32,
    pub max_uniform_range: u32,
    pub max_push_constants: u32,
}

fn vk_err(what: &str) -> impl Fn(vk::Result) -> String + '_ {
    move |e| format!("{what}: {e}")
}

fn cstr(chars: &[c_char]) -> String {
    // SAFETY-free: the arrays Vulkan returns are NUL-terminated, but be
    // defensive and stop at the array end.
    let bytes: Vec<u8> = chars
        .iter()
        .take_while(|&&c| c != 0)
        .map(|&c| c as u8)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

impl Gpu {
    /// Load libvulkan, pick a device (a real GPU first, else a CPU driver
    /// such as lavapipe) and create a compute queue. `Err` says why there
    /// is no usable Vulkan device.
    pub fn new() -> Result<Gpu, String> {
        // SAFETY: loading the system Vulkan loader; its functions are only
        // called through ash's typed wrappers below.
        let entry = unsafe { ash::Entry::load() }
            .map_err(|e| format!("cannot load the Vulkan loader (libvulkan): {e}"))?;
        let app_name = c"stride-exec";
        let app = vk::ApplicationInfo::default()
            .application_name(app_name)
            .api_version(vk::make_api_version(0, 1, 2, 0));
        let create = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: valid create info; the instance is destroyed in Drop.
        let instance =
            unsafe { entry.create_instance(&create, None) }.map_err(vk_err("vkCreateInstance"))?;
        match Self::with_instance(entry, instance.clone()) {
            Ok(gpu) => Ok(gpu),
            Err(e) => {
                // SAFETY: nothing else was created from this instance.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    fn with_instance(entry: ash::Entry, instance: ash::Instance) -> Result<Gpu, String> {
        // SAFETY: plain queries on a live instance.
        let physicals = unsafe { instance.enumerate_physical_devices() }
            .map_err(vk_err("vkEnumeratePhysicalDevices"))?;
        let rank = |t: vk::PhysicalDeviceType| match t {
            vk::PhysicalDeviceType::DISCRETE_GPU => 0,
            vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
            vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
            vk::PhysicalDeviceType::CPU => 3,
            _ => 4,
        };
        let mut candidates = Vec::new();
        for (i, &pd) in physicals.iter().enumerate() {
            // SAFETY: queries on a device enumerated from this instance.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            if props.api_version < vk::make_api_version(0, 1, 1, 0) {
                continue;
            }
            let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
            let Some(family) = families
                .iter()
                .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            else {
                continue;
            };
            candidates.push((rank(props.device_type), i, pd, props, family as u32));
        }
        candidates.sort_by_key(|c| (c.0, c.1));
        let Some(&(_, _, pd, props, family)) = candidates.first() else {
            return Err(format!(
                "no Vulkan 1.1 device with a compute queue ({} devices found)",
                physicals.len()
            ));
        };

        // Query the optional features (Vulkan 1.2 feature structs).
        let mut have = Features::default();
        let is_12 = props.api_version >= vk::make_api_version(0, 1, 2, 0);
        if is_12 {
            let mut f11 = vk::PhysicalDeviceVulkan11Features::default();
            let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
            let mut f2 = vk::PhysicalDeviceFeatures2::default()
                .push_next(&mut f11)
                .push_next(&mut f12);
            // SAFETY: a well-formed pNext chain of feature structs.
            unsafe { instance.get_physical_device_features2(pd, &mut f2) };
            have = Features {
                shader_float16: f12.shader_float16 != 0,
                storage_buffer16: f11.storage_buffer16_bit_access != 0,
                uniform_and_storage_buffer16: f11.uniform_and_storage_buffer16_bit_access != 0,
                storage_push_constant16: f11.storage_push_constant16 != 0,
                uniform_buffer_standard_layout: f12.uniform_buffer_standard_layout != 0,
                scalar_block_layout: f12.scalar_block_layout != 0,
            };
        }
        let mut e11 = vk::PhysicalDeviceVulkan11Features::default()
            .storage_buffer16_bit_access(have.storage_buffer16)
            .uniform_and_storage_buffer16_bit_access(have.uniform_and_storage_buffer16)
            .storage_push_constant16(have.storage_push_constant16);
        let mut e12 = vk::PhysicalDeviceVulkan12Features::default()
            .shader_float16(have.shader_float16)
            .uniform_buffer_standard_layout(have.uniform_buffer_standard_layout)
            .scalar_block_layout(have.scalar_block_layout);
        let priorities = [1.0f32];
        let queue_info = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&priorities)];
        let mut device_info = vk::DeviceCreateInfo::default().queue_create_infos(&queue_info);
        if is_12 {
            device_info = device_info.push_next(&mut e11).push_next(&mut e12);
        }
        // SAFETY: valid create info for a device of this instance.
        let device = unsafe { instance.create_device(pd, &device_info, None) }
            .map_err(vk_err("vkCreateDevice"))?;
        // SAFETY: queue 0 of the family we asked for.
        let queue = unsafe { device.get_device_queue(family, 0) };
        let pool_info = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid create info.
        let command_pool = match unsafe { device.create_command_pool(&pool_info, None) } {
            Ok(p) => p,
            Err(e) => {
                // SAFETY: the device has no children yet.
                unsafe { device.destroy_device(None) };
                return Err(format!("vkCreateCommandPool: {e}"));
            }
        };
        // SAFETY: a plain query.
        let memory = unsafe { instance.get_physical_device_memory_properties(pd) };
        let v = props.api_version;
        let description = format!(
            "{} ({:?}, Vulkan {}.{}.{})",
            cstr(&props.device_name),
            props.device_type,
            vk::api_version_major(v),
            vk::api_version_minor(v),
            vk::api_version_patch(v)
        );
        Ok(Gpu {
            _entry: entry,
            instance,
            device,
            queue,
            command_pool,
            memory,
            description,
            features: have,
            max_sets: props.limits.max_bound_descriptor_sets,
            max_uniform_range: props.limits.max_uniform_buffer_range,
            max_push_constants: props.limits.max_push_constants_size,
        })
    }

    fn memory_type(&self, bits: u32) -> Option<u32> {
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        (0..self.memory.memory_type_count).find(|&i| {
            bits & (1 << i) != 0
                && self.memory.memory_types[i as usize]
                    .property_flags
                    .contains(want)
        })
    }

    /// Run one dispatch; returns the contents of every buffer afterwards,
    /// in `job.buffers` order.
    pub fn run(&self, job: &Job) -> Result<Vec<Vec<u8>>, RunError> {
        let mut res = Resources::default();
        let out = self.run_with(job, &mut res);
        let timed_out = res.timed_out;
        res.destroy(&self.device, self.command_pool);
        out.map_err(|message| RunError { message, timed_out })
    }

    fn run_with(&self, job: &Job, res: &mut Resources) -> Result<Vec<Vec<u8>>, String> {
        let d = &self.device;
        // Buffers.
        for spec in job.buffers {
            let size = spec.data.len().max(4) as u64;
            let info = vk::BufferCreateInfo::default()
                .size(size)
                .usage(vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::UNIFORM_BUFFER)
                .sharing_mode(vk::SharingMode::EXCLUSIVE);
            // SAFETY: valid create info; destroyed by Resources::destroy.
            let buffer =
                unsafe { d.create_buffer(&info, None) }.map_err(vk_err("vkCreateBuffer"))?;
            res.buffers.push(buffer);
            // SAFETY: a plain query on a live buffer.
            let req = unsafe { d.get_buffer_memory_requirements(buffer) };
            let ty = self
                .memory_type(req.memory_type_bits)
                .ok_or("no host-visible coherent memory type for a buffer")?;
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(ty);
            // SAFETY: valid allocate info.
            let memory =
                unsafe { d.allocate_memory(&alloc, None) }.map_err(vk_err("vkAllocateMemory"))?;
            res.memories.push(memory);
            // SAFETY: memory of the right type and size for the buffer.
            unsafe { d.bind_buffer_memory(buffer, memory, 0) }
                .map_err(vk_err("vkBindBufferMemory"))?;
            // SAFETY: host-visible memory mapped once, written within
            // its size, unmapped before the dispatch.
            unsafe {
                let ptr = d
                    .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                    .map_err(vk_err("vkMapMemory"))?;
                std::ptr::write_bytes(ptr as *mut u8, 0, size as usize);
                std::ptr::copy_nonoverlapping(spec.data.as_ptr(), ptr as *mut u8, spec.data.len());
                d.unmap_memory(memory);
            }
        }

        // Descriptor set layouts: sets 0..=max, empty where unused.
        let set_count = job.buffers.iter().map(|b| b.set + 1).max().unwrap_or(0);
        if set_count > self.max_sets {
            return Err(format!(
                "the module needs {set_count} descriptor sets; the device binds at most {}",
                self.max_sets
            ));
        }
        let desc_type = |k: BufferKind| match k {
            BufferKind::Uniform => vk::DescriptorType::UNIFORM_BUFFER,
            BufferKind::Storage => vk::DescriptorType::STORAGE_BUFFER,
        };
        for set in 0..set_count {
            let bindings: Vec<vk::DescriptorSetLayoutBinding> = job
                .buffers
                .iter()
                .filter(|b| b.set == set)
                .map(|b| {
                    vk::DescriptorSetLayoutBinding::default()
                        .binding(b.binding)
                        .descriptor_type(desc_type(b.kind))
                        .descriptor_count(1)
                        .stage_flags(vk::ShaderStageFlags::COMPUTE)
                })
                .collect();
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
            // SAFETY: valid create info.
            let layout = unsafe { d.create_descriptor_set_layout(&info, None) }
                .map_err(vk_err("vkCreateDescriptorSetLayout"))?;
            res.set_layouts.push(layout);
        }
        let push_ranges: Vec<vk::PushConstantRange> = job
            .push_constants
            .map(|p| {
                vk::PushConstantRange::default()
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    .offset(0)
                    .size(p.len() as u32)
            })
            .into_iter()
            .collect();
        let pl_info = vk::PipelineLayoutCreateInfo::default()
            .set_layouts(&res.set_layouts)
            .push_constant_ranges(&push_ranges);
        // SAFETY: valid create info.
        let pipeline_layout = unsafe { d.create_pipeline_layout(&pl_info, None) }
            .map_err(vk_err("vkCreatePipelineLayout"))?;
        res.pipeline_layout = Some(pipeline_layout);

        // Descriptor pool and sets.
        let uniform_count = job
            .buffers
            .iter()
            .filter(|b| b.kind == BufferKind::Uniform)
            .count();
        let storage_count = job.buffers.len() - uniform_count;
        let mut sizes = Vec::new();
        if uniform_count > 0 {
            sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: uniform_count as u32,
            });
        }
        if storage_count > 0 {
            sizes.push(vk::DescriptorPoolSize {
                ty: vk::DescriptorType::STORAGE_BUFFER,
                descriptor_count: storage_count as u32,
            });
        }
        let sets = if set_count > 0 {
            let pool_info = vk::DescriptorPoolCreateInfo::default()
                .max_sets(set_count)
                .pool_sizes(&sizes);
            // SAFETY: valid create info.
            let pool = unsafe { d.create_descriptor_pool(&pool_info, None) }
                .map_err(vk_err("vkCreateDescriptorPool"))?;
            res.pool = Some(pool);
            let alloc = vk::DescriptorSetAllocateInfo::default()
                .descriptor_pool(pool)
                .set_layouts(&res.set_layouts);
            // SAFETY: the pool was sized for these sets.
            unsafe { d.allocate_descriptor_sets(&alloc) }
                .map_err(vk_err("vkAllocateDescriptorSets"))?
        } else {
            Vec::new()
        };
        let infos: Vec<[vk::DescriptorBufferInfo; 1]> = res
            .buffers
            .iter()
            .map(|&buffer| {
                [vk::DescriptorBufferInfo {
                    buffer,
                    offset: 0,
                    range: vk::WHOLE_SIZE,
                }]
            })
            .collect();
        let writes: Vec<vk::WriteDescriptorSet> = job
            .buffers
            .iter()
            .zip(&infos)
            .map(|(spec, info)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(sets[spec.set as usize])
                    .dst_binding(spec.binding)
                    .descriptor_type(desc_type(spec.kind))
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: every write names a live set, binding and buffer.
        unsafe { d.update_descriptor_sets(&writes, &[]) };

        // Pipeline.
        let module_info = vk::ShaderModuleCreateInfo::default().code(job.words);
        // SAFETY: SPIR-V words; the driver validates the header.
        let module = unsafe { d.create_shader_module(&module_info, None) }
            .map_err(vk_err("vkCreateShaderModule"))?;
        res.module = Some(module);
        let entry = CString::new(job.entry).map_err(|e| format!("entry point name: {e}"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(&entry);
        let info = [vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(pipeline_layout)];
        // SAFETY: valid create info.
        let pipeline =
            unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &info, None) }
                .map_err(|(_, e)| format!("vkCreateComputePipelines: {e}"))?;
        res.pipeline = pipeline.first().copied();
        let pipeline = res
            .pipeline
            .ok_or("vkCreateComputePipelines returned no pipeline")?;

        // Record, submit, wait.
        let alloc = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: valid allocate info.
        let cmd = unsafe { d.allocate_command_buffers(&alloc) }
            .map_err(vk_err("vkAllocateCommandBuffers"))?;
        res.commands = cmd.clone();
        let cmd = cmd[0];
        // SAFETY: recording into a fresh primary command buffer with
        // objects that live until the fence has signalled.
        unsafe {
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(cmd, &begin)
                .map_err(vk_err("vkBeginCommandBuffer"))?;
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            if !sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline_layout,
                    0,
                    &sets,
                    &[],
                );
            }
            if let Some(p) = job.push_constants {
                d.cmd_push_constants(cmd, pipeline_layout, vk::ShaderStageFlags::COMPUTE, 0, p);
            }
            d.cmd_dispatch(cmd, 1, 1, 1);
            let barrier = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            );
            d.end_command_buffer(cmd)
                .map_err(vk_err("vkEndCommandBuffer"))?;
            let fence = d
                .create_fence(&vk::FenceCreateInfo::default(), None)
                .map_err(vk_err("vkCreateFence"))?;
            res.fence = Some(fence);
            let cmds = [cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            d.queue_submit(self.queue, &submit, fence)
                .map_err(vk_err("vkQueueSubmit"))?;
            // A guard against a hung dispatch, not a timing check: one
            // dispatch on lavapipe took over 20 s on a 2-core machine
            // busy with parallel builds, so the guard is 2 minutes.
            let waited = d.wait_for_fences(&[fence], true, FENCE_TIMEOUT_NS);
            res.timed_out = waited == Err(vk::Result::TIMEOUT);
            waited.map_err(vk_err("vkWaitForFences"))?;
        }

        // Read back.
        let mut out = Vec::with_capacity(job.buffers.len());
        for (spec, &memory) in job.buffers.iter().zip(&res.memories) {
            let mut bytes = vec![0u8; spec.data.len()];
            // SAFETY: the dispatch has completed (fence) and the memory is
            // coherent; the copy stays within the buffer's size.
            unsafe {
                let ptr = d
                    .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                    .map_err(vk_err("vkMapMemory"))?;
                std::ptr::copy_nonoverlapping(ptr as *const u8, bytes.as_mut_ptr(), bytes.len());
                d.unmap_memory(memory);
            }
            out.push(bytes);
        }
        Ok(out)
    }
}

/// Everything one dispatch creates, destroyed together.
#[derive(Default)]
struct Resources {
    buffers: Vec<vk::Buffer>,
    memories: Vec<vk::DeviceMemory>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pipeline_layout: Option<vk::PipelineLayout>,
    pool: Option<vk::DescriptorPool>,
    module: Option<vk::ShaderModule>,
    pipeline: Option<vk::Pipeline>,
    commands: Vec<vk::CommandBuffer>,
    fence: Option<vk::Fence>,
    /// The fence wait timed out (the dispatch was still running).
    timed_out: bool,
}

/// Why a dispatch failed.
#[derive(Debug)]
pub struct RunError {
    pub message: String,
    /// The dispatch did not finish within the fence timeout (on lavapipe
    /// this includes compiling the shader, which happens at the first
    /// dispatch): slow, not necessarily wrong.
    pub timed_out: bool,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl Resources {
    fn destroy(&mut self, d: &ash::Device, pool: vk::CommandPool) {
        // SAFETY: the device is idle for these objects (we waited on the
        // fence, or never submitted); each is destroyed once.
        unsafe {
            if self.fence.is_some() {
                let _ = d.device_wait_idle();
            }
            if let Some(f) = self.fence.take() {
                d.destroy_fence(f, None);
            }
            if let Some(p) = self.pipeline.take() {
                d.destroy_pipeline(p, None);
            }
            if let Some(m) = self.module.take() {
                d.destroy_shader_module(m, None);
            }
            if let Some(p) = self.pool.take() {
                d.destroy_descriptor_pool(p, None);
            }
            if let Some(l) = self.pipeline_layout.take() {
                d.destroy_pipeline_layout(l, None);
            }
            for l in self.set_layouts.drain(..) {
                d.destroy_descriptor_set_layout(l, None);
            }
            for b in self.buffers.drain(..) {
                d.destroy_buffer(b, None);
            }
            for m in self.memories.drain(..) {
                d.free_memory(m, None);
            }
            if !self.commands.is_empty() {
                d.free_command_buffers(pool, &self.commands);
                self.commands.clear();
            }
        }
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: all per-dispatch objects were destroyed in `run`.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_command_pool(self.command_pool, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}
