	.amdgcn_target "amdgcn-amd-amdhsa--gfx950"
	.amdhsa_code_object_version 5
	.text
	.globl	dwconv3d_mfma_band
	.p2align	8
	.type	dwconv3d_mfma_band,@function
dwconv3d_mfma_band:
  s_load_dwordx2 s[4:5], s[0:1], 0 ; input kernarg_ptr  @dwconv_mfma.cpp:104
  s_load_dwordx2 s[6:7], s[0:1], 8 ; weight kernarg_ptr  @dwconv_mfma.cpp:105
  s_load_dwordx2 s[8:9], s[0:1], 16 ; output kernarg_ptr  @dwconv_mfma.cpp:106
  v_bfe_u32 v1, v0, 0, 10 ; workitem_id_x v0_workitem_ids  @dwconv_mfma.cpp:109
  s_mov_b32 s0, 0x8ad8f2fc ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s1, s2, s0 ; nc workgroup_id_x magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s1, s1, 5 ; nc nc  @dwconv_mfma.cpp:135
  s_mov_b32 s0, 59 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s1, s0 ; q_times_d nc divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s0, s2, s3 ; d_out workgroup_id_x q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s3, s1 ; n nc  @dwconv_mfma.cpp:129
  s_mov_b32 s10, 1 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s11, s3, s10 ; q_times_d n divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s3, s1, s11 ; c nc q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s10, 0x6b3a0 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s11, s1, s10 ; in_nc_off nc factor  @dwconv_mfma.cpp:148
  s_mov_b32 s1, 0x1c20 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s10, s2, s1 ; out_off workgroup_id_x factor  @dwconv_mfma.cpp:148
  s_mov_b32 s1, 0x96 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s2, s3, s1 ; wt_off c factor  @dwconv_mfma.cpp:148
  s_waitcnt lgkmcnt(0) ; dwconv_mfma.cpp:167
  s_add_u32 s12, s8, s10 ; out_plane[0] output[0] out_off  @dwconv_mfma.cpp:153
  s_addc_u32 s13, s9, 0 ; out_plane[1] output[1]  @dwconv_mfma.cpp:154
  s_add_u32 s8, s6, s2 ; wt_c[0] weight[0] wt_off  @dwconv_mfma.cpp:153
  s_addc_u32 s9, s7, 0 ; wt_c[1] weight[1]  @dwconv_mfma.cpp:154
  v_lshrrev_b32 v0, 6, v1 ; wave_v workitem_id_x  @dwconv_mfma.cpp:171
  s_nop 0 ; hazard valu-vgpr-readlane: VALU writes v0, which v_readfirstlane_b32 reads
  v_readfirstlane_b32 s1, v0 ; wave wave_v  @dwconv_mfma.cpp:173
  v_and_b32 v0, 63, v1 ; lane workitem_id_x  @dwconv_mfma.cpp:175
  v_lshlrev_b32 v2, 1, v1 ; tap_byte workitem_id_x  @dwconv_mfma.cpp:189
  v_mov_b32 v3, 0 ; tap0  @dwconv_mfma.cpp:191
  v_cmp_gt_u32 vcc, 0x4b, v1 ; workitem_id_x  @dwconv_mfma.cpp:194
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:194
  s_cbranch_execz .Lelse_0 ; dwconv_mfma.cpp:194
  global_load_ushort v3, v2, s[8:9] ; tap0 tap_byte wt_c  @dwconv_mfma.cpp:193
.Lelse_0:
.Lendif_1:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:194
  v_mov_b32 v4, 0 ; zero16[0]  @dwconv_mfma.cpp:232
  v_mov_b32 v5, 0 ; zero16[1]  @dwconv_mfma.cpp:232
  v_mov_b32 v6, 0 ; zero16[2]  @dwconv_mfma.cpp:232
  v_mov_b32 v7, 0 ; zero16[3]  @dwconv_mfma.cpp:232
  v_mul_u32_u24 v2, 0xb0, v1 ; side_pad_addr workitem_id_x  @dwconv_mfma.cpp:239
  v_cmp_gt_u32 vcc, 0x9c, v1 ; workitem_id_x  @dwconv_mfma.cpp:247
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:247
  s_cbranch_execz .Lelse_2 ; dwconv_mfma.cpp:247
  ds_write_b32 v2, v4 offset:164 ; side_pad_addr zero16[0]  @dwconv_mfma.cpp:245
  ds_write_b32 v2, v4 offset:168 ; side_pad_addr zero16[0]  @dwconv_mfma.cpp:245
  ds_write_b32 v2, v4 offset:172 ; side_pad_addr zero16[0]  @dwconv_mfma.cpp:245
  ds_write_b32 v2, v4 offset:176 ; side_pad_addr zero16[0]  @dwconv_mfma.cpp:245
.Lelse_2:
.Lendif_3:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:247
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 22, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_4 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_4:
.Lendif_5:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 0x4d, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_6 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] offset:8272 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_6:
.Lendif_7:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 0x4d, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_8 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] offset:17424 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_8:
.Lendif_9:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  ds_write_b128 v2, v[4:7] offset:26576 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
  ds_write_b128 v2, v[4:7] offset:30672 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
  ds_write_b128 v2, v[4:7] offset:34768 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
  v_cmp_gt_u32 vcc, 8, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_10 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] offset:38864 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_10:
.Lendif_11:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  s_waitcnt lgkmcnt(0) ; dwconv_mfma.cpp:256
  s_barrier ; dwconv_mfma.cpp:257
  s_waitcnt vmcnt(0) ; dwconv_mfma.cpp:263
  v_cmp_gt_u32 vcc, 0x4b, v1 ; workitem_id_x  @dwconv_mfma.cpp:288
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:288
  s_cbranch_execz .Lelse_12 ; dwconv_mfma.cpp:288
  v_mul_u32_u24 v2, 0x3334, v1 ; t_times_m workitem_id_x  @dwconv_mfma.cpp:271
  v_lshrrev_b32 v4, 16, v2 ; band_row t_times_m  @dwconv_mfma.cpp:273
  v_mul_u32_u24 v2, 5, v4 ; row_times_kw band_row  @dwconv_mfma.cpp:275
  v_sub_u32 v5, v1, v2 ; band_tap workitem_id_x row_times_kw  @dwconv_mfma.cpp:277
  v_mul_u32_u24 v1, 0x60, v4 ; band_row_byte band_row  @dwconv_mfma.cpp:280
  v_lshl_add_u32 v2, v5, 1, v1 ; band_addr band_tap band_row_byte  @dwconv_mfma.cpp:282
  v_add_u32 v1, 0x6b6e, v2 ; band_addr band_addr  @dwconv_mfma.cpp:284
  ds_write_b16 v1, v3 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:1438 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:2876 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:4314 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:5752 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:7190 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:8628 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:10066 ; band_addr tap0  @dwconv_mfma.cpp:286
.Lelse_12:
.Lendif_13:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:288
  v_lshlrev_b32 v1, 2, v0 ; lane_off0 lane  @dwconv_mfma.cpp:303
  s_mov_b32 s2, 0x1c20 ; slice_bytes  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s0, s2 ; slab_goff d_out slice_bytes  @dwconv_mfma.cpp:311
  s_add_u32 s3, s3, s11 ; slab_goff slab_goff in_nc_off  @dwconv_mfma.cpp:312
  s_mov_b32 s0, 0xa0 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s2, s1, s0 ; wave_row_goff wave factor  @dwconv_mfma.cpp:148
  s_add_u32 s3, s3, s2 ; slab_goff slab_goff wave_row_goff  @dwconv_mfma.cpp:314
  s_mov_b32 s0, 0xb0 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s2, s1, s0 ; wave_row_loff wave factor  @dwconv_mfma.cpp:148
  v_cmp_gt_u32 vcc, 40, v0 ; lane  @dwconv_mfma.cpp:363
  s_and_saveexec_b64 s[6:7], vcc ; saved_exec  @dwconv_mfma.cpp:363
  s_cbranch_execz .Lelse_14 ; dwconv_mfma.cpp:363
  s_add_u32 s0, s3, 0 ; slice_goff slab_goff  @dwconv_mfma.cpp:322
  s_add_u32 s8, s4, s0 ; row_ptr[0] input[0] slice_goff  @dwconv_mfma.cpp:323
  s_addc_u32 s9, s5, 0 ; row_ptr[1] input[1]  @dwconv_mfma.cpp:324
  s_add_u32 m0, s2, 0x164 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x424 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x6e4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x9a4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0xc64 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0xf24 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x11e4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x14a4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1764 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1a24 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1ce4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_cmp_lt_u32 s1, 1 ; wave  @dwconv_mfma.cpp:344
  s_cbranch_scc0 .Lelse_16 ; dwconv_mfma.cpp:344
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1fa4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
.Lelse_16:
.Lendif_17:
  s_add_u32 s0, s3, 0x1c20 ; slice_goff slab_goff  @dwconv_mfma.cpp:322
  s_add_u32 s8, s4, s0 ; row_ptr[0] input[0] slice_goff  @dwconv_mfma.cpp:323
  s_addc_u32 s9, s5, 0 ; row_ptr[1] input[1]  @dwconv_mfma.cpp:324
  s_add_u32 m0, s2, 0x2524 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x27e4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x2aa4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x2d64 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3024 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x32e4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x35a4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3864 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3b24 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3de4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x40a4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_cmp_lt_u32 s1, 1 ; wave  @dwconv_mfma.cpp:344
  s_cbranch_scc0 .Lelse_18 ; dwconv_mfma.cpp:344
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4364 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
.Lelse_18:
.Lendif_19:
  s_add_u32 s0, s3, 0x3840 ; slice_goff slab_goff  @dwconv_mfma.cpp:322
  s_add_u32 s8, s4, s0 ; row_ptr[0] input[0] slice_goff  @dwconv_mfma.cpp:323
  s_addc_u32 s9, s5, 0 ; row_ptr[1] input[1]  @dwconv_mfma.cpp:324
  s_add_u32 m0, s2, 0x48e4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4ba4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4e64 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5124 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x53e4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x56a4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5964 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5c24 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5ee4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x61a4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x6464 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_cmp_lt_u32 s1, 1 ; wave  @dwconv_mfma.cpp:344
  s_cbranch_scc0 .Lelse_20 ; dwconv_mfma.cpp:344
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x6724 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
.Lelse_20:
.Lendif_21:
.Lelse_14:
.Lendif_15:
  s_mov_b64 exec, s[6:7] ; saved_exec  @dwconv_mfma.cpp:363
  s_waitcnt vmcnt(0) lgkmcnt(0) ; dwconv_mfma.cpp:379
  s_barrier ; dwconv_mfma.cpp:380
  v_and_b32 v1, 15, v0 ; n lane  @dwconv_mfma.cpp:386
  v_lshrrev_b32 v2, 4, v0 ; g lane  @dwconv_mfma.cpp:388
  v_lshlrev_b32 v0, 2, v2 ; g4 g  @dwconv_mfma.cpp:391
  v_add_u32 v3, v1, v2 ; n_plus_g n g  @dwconv_mfma.cpp:395
  v_mul_u32_u24 v4, 0xb0, v3 ; b_rows n_plus_g  @dwconv_mfma.cpp:397
  v_mul_u32_u24 v3, 0xb0, v1 ; n_row n  @dwconv_mfma.cpp:399
  v_mad_u32_u24 v5, v2, 16, v3 ; b_cols g n_row  @dwconv_mfma.cpp:401
  v_sub_u32 v3, 15, v1 ; rev n  @dwconv_mfma.cpp:405
  v_and_b32 v6, 7, v3 ; copy rev  @dwconv_mfma.cpp:407
  v_sub_u32 v7, v3, v6 ; aligned rev copy  @dwconv_mfma.cpp:409
  v_mul_u32_u24 v3, 0x5a0, v6 ; zb copy  @dwconv_mfma.cpp:411
  v_lshl_add_u32 v3, v7, 1, v3 ; zb aligned zb  @dwconv_mfma.cpp:412
  s_mov_b32 s0, 0x60 ; band_row_bytes  @dwconv_mfma.cpp:123
  v_mad_u32_u24 v6, v2, s0, v3 ; z_rows g band_row_bytes zb  @dwconv_mfma.cpp:414
  v_mad_u32_u24 v7, v2, 16, v3 ; z_cols g zb  @dwconv_mfma.cpp:417
  v_mul_u32_u24 v2, 0xa0, v1 ; out_row n  @dwconv_mfma.cpp:421
  v_lshl_add_u32 v3, v0, 1, v2 ; out_lane g4 out_row  @dwconv_mfma.cpp:423
  ds_read_b128 v[8:11], v6 offset:27472 ; band0 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[12:15], v6 offset:27488 ; band1 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[16:19], v6 offset:27504 ; band2 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[20:23], v6 offset:27952 ; band3 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[24:27], v6 offset:27968 ; band4 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[28:31], v6 offset:27984 ; band5 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[32:35], v6 offset:28432 ; band6 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[36:39], v6 offset:28448 ; band7 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[40:43], v6 offset:28464 ; band8 z_rows  @dwconv_mfma.cpp:428
  ds_read_b128 v[44:47], v7 offset:27856 ; band9 z_cols  @dwconv_mfma.cpp:428
  ds_read_b128 v[48:51], v7 offset:28336 ; band10 z_cols  @dwconv_mfma.cpp:428
  ds_read_b128 v[52:55], v7 offset:28816 ; band11 z_cols  @dwconv_mfma.cpp:428
  s_mov_b32 s0, s1 ; block wave  @dwconv_mfma.cpp:452
  s_cmp_lt_u32 s0, 15 ; block  @dwconv_mfma.cpp:458
  s_cbranch_scc0 .Lelse_22 ; dwconv_mfma.cpp:458
  s_mov_b32 s1, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s2, s0, s1 ; hblock block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s2, s2, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s1, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s1 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s1, s0, s3 ; strip block q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s3, 0xb00 ; tile_block_rows  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s2, s3 ; tile_block_row hblock tile_block_rows  @dwconv_mfma.cpp:486
  s_lshl_b32 s2, s1, 5 ; tile_block strip  @dwconv_mfma.cpp:488
  s_add_u32 s2, s2, s4 ; tile_block tile_block tile_block_row  @dwconv_mfma.cpp:489
  v_add_u32 v2, s2, v4 ; b_rows_t tile_block b_rows  @dwconv_mfma.cpp:491
  v_add_u32 v6, s2, v5 ; b_cols_t tile_block b_cols  @dwconv_mfma.cpp:493
  ds_read_b128 v[56:59], v2 ; in0 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[60:63], v2 offset:16 ; in1 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[64:67], v2 offset:32 ; in2 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[68:71], v2 offset:9152 ; in3 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[72:75], v2 offset:9168 ; in4 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[76:79], v2 offset:9184 ; in5 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[80:83], v2 offset:18304 ; in6 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[84:87], v2 offset:18320 ; in7 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[88:91], v2 offset:18336 ; in8 b_rows_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[92:95], v6 offset:704 ; in9 b_cols_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[96:99], v6 offset:9856 ; in10 b_cols_t  @dwconv_mfma.cpp:428
  ds_read_b128 v[100:103], v6 offset:19008 ; in11 b_cols_t  @dwconv_mfma.cpp:428
  s_add_u32 s1, s0, 4 ; next_block block  @dwconv_mfma.cpp:455
  s_cmp_lt_u32 s1, 15 ; next_block  @dwconv_mfma.cpp:456
  s_cbranch_scc0 .Lelse_24 ; dwconv_mfma.cpp:462
.Lloop_26:
  s_add_u32 s1, s0, 4 ; next_block block  @dwconv_mfma.cpp:508
  s_mov_b32 s2, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s3, s1, s2 ; hblock next_block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s3, s3, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s2, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s3, s2 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s2, s1, s4 ; strip next_block q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s1, 0xb00 ; tile_block_rows  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s3, s1 ; tile_block_row hblock tile_block_rows  @dwconv_mfma.cpp:486
  s_lshl_b32 s1, s2, 5 ; tile_block strip  @dwconv_mfma.cpp:488
  s_add_u32 s1, s1, s4 ; tile_block tile_block tile_block_row  @dwconv_mfma.cpp:489
  v_add_u32 v2, s1, v4 ; b_rows_t tile_block b_rows  @dwconv_mfma.cpp:491
  v_add_u32 v108, s1, v5 ; b_cols_t tile_block b_cols  @dwconv_mfma.cpp:493
  v_mov_b32 v104, 0 ; acc[0]  @dwconv_mfma.cpp:512
  v_mov_b32 v105, 0 ; acc[1]  @dwconv_mfma.cpp:512
  v_mov_b32 v106, 0 ; acc[2]  @dwconv_mfma.cpp:512
  v_mov_b32 v107, 0 ; acc[3]  @dwconv_mfma.cpp:512
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  s_nop 0 ; hazard valu-vgpr-mfma: VALU writes v[104:107], which the MFMA reads
  v_mfma_f32_16x16x32_bf16 v[104:107], v[8:11], v[56:59], v[104:107] ; acc band0 in0 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[56:59], v2 ; in0 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[12:15], v[60:63], v[104:107] ; acc band1 in1 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[60:63], v2 offset:16 ; in1 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[16:19], v[64:67], v[104:107] ; acc band2 in2 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[64:67], v2 offset:32 ; in2 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[20:23], v[68:71], v[104:107] ; acc band3 in3 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[68:71], v2 offset:9152 ; in3 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[24:27], v[72:75], v[104:107] ; acc band4 in4 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[72:75], v2 offset:9168 ; in4 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[28:31], v[76:79], v[104:107] ; acc band5 in5 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[76:79], v2 offset:9184 ; in5 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[32:35], v[80:83], v[104:107] ; acc band6 in6 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[80:83], v2 offset:18304 ; in6 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[36:39], v[84:87], v[104:107] ; acc band7 in7 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[84:87], v2 offset:18320 ; in7 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[40:43], v[88:91], v[104:107] ; acc band8 in8 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[88:91], v2 offset:18336 ; in8 b_rows_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[44:47], v[92:95], v[104:107] ; acc band9 in9 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[92:95], v108 offset:704 ; in9 b_cols_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[48:51], v[96:99], v[104:107] ; acc band10 in10 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[96:99], v108 offset:9856 ; in10 b_cols_t  @dwconv_mfma.cpp:428
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[104:107], v[52:55], v[100:103], v[104:107] ; acc band11 in11 acc  @dwconv_mfma.cpp:518
  ds_read_b128 v[100:103], v108 offset:19008 ; in11 b_cols_t  @dwconv_mfma.cpp:428
  s_mov_b32 s1, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s2, s0, s1 ; hblock block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s2, s2, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s1, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s1 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s1, s0, s3 ; strip block q_times_d  @dwconv_mfma.cpp:143
  s_nop 0 ; hazard mfma-read: MFMA writes v104, which this instruction reads
  v_cvt_pk_bf16_f32 v2, v104, v105 ; packed acc[0] acc[1]  @dwconv_mfma.cpp:528
  v_cvt_pk_bf16_f32 v108, v106, v107 ; packed acc[2] acc[3]  @dwconv_mfma.cpp:528
  v_mov_b32 v6, v2 ; out_pair[0] packed  @dwconv_mfma.cpp:542
  v_mov_b32 v7, v108 ; out_pair[1] packed  @dwconv_mfma.cpp:543
  s_mov_b32 s3, 0xa00 ; out_block_rows  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s2, s3 ; out_block_row hblock out_block_rows  @dwconv_mfma.cpp:545
  s_lshl_b32 s3, s1, 5 ; out_block strip  @dwconv_mfma.cpp:547
  s_add_u32 s3, s3, s4 ; out_block out_block out_block_row  @dwconv_mfma.cpp:548
  v_add_u32 v2, s3, v3 ; out_addr out_block out_lane  @dwconv_mfma.cpp:550
  s_lshl_b32 s3, s2, 4 ; rows_left hblock  @dwconv_mfma.cpp:553
  s_sub_u32 s3, 45, s3 ; rows_left rows_left  @dwconv_mfma.cpp:554
  s_lshl_b32 s2, s1, 4 ; cols_left strip  @dwconv_mfma.cpp:556
  s_sub_u32 s2, 0x50, s2 ; cols_left cols_left  @dwconv_mfma.cpp:557
  v_cmp_gt_u32 vcc, s3, v1 ; rows_left n  @dwconv_mfma.cpp:561
  v_cmp_gt_u32 s[4:5], s2, v0 ; col_mask cols_left g4  @dwconv_mfma.cpp:562
  s_and_b64 vcc, vcc, s[4:5] ; col_mask  @dwconv_mfma.cpp:563
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:559
  s_cbranch_execz .Lelse_27 ; dwconv_mfma.cpp:559
  global_store_dwordx2 v2, v[6:7], s[12:13] ; out_addr out_pair out_plane  @dwconv_mfma.cpp:565
.Lelse_27:
.Lendif_28:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:559
  s_add_u32 s0, s0, 4 ; block block  @dwconv_mfma.cpp:466
  s_add_u32 s1, s0, 4 ; next_block block  @dwconv_mfma.cpp:455
  s_cmp_lt_u32 s1, 15 ; next_block  @dwconv_mfma.cpp:456
  s_cbranch_scc1 .Lloop_26 ; dwconv_mfma.cpp:463
.Lelse_24:
.Lendif_25:
  v_mov_b32 v4, 0 ; acc[0]  @dwconv_mfma.cpp:512
  v_mov_b32 v5, 0 ; acc[1]  @dwconv_mfma.cpp:512
  v_mov_b32 v6, 0 ; acc[2]  @dwconv_mfma.cpp:512
  v_mov_b32 v7, 0 ; acc[3]  @dwconv_mfma.cpp:512
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  s_nop 0 ; hazard valu-vgpr-mfma: VALU writes v[4:7], which the MFMA reads
  v_mfma_f32_16x16x32_bf16 v[4:7], v[8:11], v[56:59], v[4:7] ; acc band0 in0 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(10) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[12:15], v[60:63], v[4:7] ; acc band1 in1 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(9) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[16:19], v[64:67], v[4:7] ; acc band2 in2 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(8) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[20:23], v[68:71], v[4:7] ; acc band3 in3 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(7) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[24:27], v[72:75], v[4:7] ; acc band4 in4 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(6) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[28:31], v[76:79], v[4:7] ; acc band5 in5 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(5) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[32:35], v[80:83], v[4:7] ; acc band6 in6 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(4) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[36:39], v[84:87], v[4:7] ; acc band7 in7 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(3) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[40:43], v[88:91], v[4:7] ; acc band8 in8 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(2) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[44:47], v[92:95], v[4:7] ; acc band9 in9 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(1) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[48:51], v[96:99], v[4:7] ; acc band10 in10 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(0) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x32_bf16 v[4:7], v[52:55], v[100:103], v[4:7] ; acc band11 in11 acc  @dwconv_mfma.cpp:518
  s_mov_b32 s1, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s2, s0, s1 ; hblock block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s2, s2, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s1, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s1 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s1, s0, s3 ; strip block q_times_d  @dwconv_mfma.cpp:143
  s_nop 1 ; hazard mfma-read: MFMA writes v4, which this instruction reads
  v_cvt_pk_bf16_f32 v2, v4, v5 ; packed acc[0] acc[1]  @dwconv_mfma.cpp:528
  v_cvt_pk_bf16_f32 v8, v6, v7 ; packed acc[2] acc[3]  @dwconv_mfma.cpp:528
  v_mov_b32 v4, v2 ; out_pair[0] packed  @dwconv_mfma.cpp:542
  v_mov_b32 v5, v8 ; out_pair[1] packed  @dwconv_mfma.cpp:543
  s_mov_b32 s0, 0xa00 ; out_block_rows  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s0 ; out_block_row hblock out_block_rows  @dwconv_mfma.cpp:545
  s_lshl_b32 s0, s1, 5 ; out_block strip  @dwconv_mfma.cpp:547
  s_add_u32 s0, s0, s3 ; out_block out_block out_block_row  @dwconv_mfma.cpp:548
  v_add_u32 v2, s0, v3 ; out_addr out_block out_lane  @dwconv_mfma.cpp:550
  s_lshl_b32 s0, s2, 4 ; rows_left hblock  @dwconv_mfma.cpp:553
  s_sub_u32 s0, 45, s0 ; rows_left rows_left  @dwconv_mfma.cpp:554
  s_lshl_b32 s2, s1, 4 ; cols_left strip  @dwconv_mfma.cpp:556
  s_sub_u32 s2, 0x50, s2 ; cols_left cols_left  @dwconv_mfma.cpp:557
  v_cmp_gt_u32 vcc, s0, v1 ; rows_left n  @dwconv_mfma.cpp:561
  v_cmp_gt_u32 s[0:1], s2, v0 ; col_mask cols_left g4  @dwconv_mfma.cpp:562
  s_and_b64 vcc, vcc, s[0:1] ; col_mask  @dwconv_mfma.cpp:563
  s_and_saveexec_b64 s[0:1], vcc ; saved_exec  @dwconv_mfma.cpp:559
  s_cbranch_execz .Lelse_29 ; dwconv_mfma.cpp:559
  global_store_dwordx2 v2, v[4:5], s[12:13] ; out_addr out_pair out_plane  @dwconv_mfma.cpp:565
.Lelse_29:
.Lendif_30:
  s_mov_b64 exec, s[0:1] ; saved_exec  @dwconv_mfma.cpp:559
.Lelse_22:
.Lendif_23:
  s_endpgm ; implicit end of program  dwconv_mfma.cpp:583
.Ldwconv3d_mfma_band_end:
	.size	dwconv3d_mfma_band, .Ldwconv3d_mfma_band_end-dwconv3d_mfma_band
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel dwconv3d_mfma_band
		.amdhsa_group_segment_fixed_size 38992
		.amdhsa_private_segment_fixed_size 0
		.amdhsa_kernarg_size 24
		.amdhsa_user_sgpr_count 2
		.amdhsa_user_sgpr_dispatch_ptr 0
		.amdhsa_user_sgpr_queue_ptr 0
		.amdhsa_user_sgpr_kernarg_segment_ptr 1
		.amdhsa_user_sgpr_dispatch_id 0
		.amdhsa_user_sgpr_private_segment_size 0
		.amdhsa_uses_dynamic_stack 0
		.amdhsa_enable_private_segment 0
		.amdhsa_system_sgpr_workgroup_id_x 1
		.amdhsa_system_sgpr_workgroup_id_y 0
		.amdhsa_system_sgpr_workgroup_id_z 0
		.amdhsa_system_sgpr_workgroup_info 0
		.amdhsa_system_vgpr_workitem_id 0
		.amdhsa_next_free_vgpr 109
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 112
		.amdhsa_reserve_vcc 1
		.amdhsa_float_round_mode_32 0
		.amdhsa_float_round_mode_16_64 0
		.amdhsa_float_denorm_mode_32 3
		.amdhsa_float_denorm_mode_16_64 3
		.amdhsa_dx10_clamp 1
		.amdhsa_ieee_mode 1
		.amdhsa_fp16_overflow 0
		.amdhsa_tg_split 0
	.end_amdhsa_kernel
	.text
	.amdgpu_metadata
---
amdhsa.kernels:
  - .agpr_count: 0
    .args:
      - .name: 'input'
        .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .is_const: true
        .actual_access: read_only
        .type_name: 'bf16*'
      - .name: 'weight'
        .offset: 8
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .is_const: true
        .actual_access: read_only
        .type_name: 'bf16*'
      - .name: 'output'
        .offset: 16
        .size: 8
        .value_kind: global_buffer
        .address_space: global
        .type_name: 'bf16*'
    .group_segment_fixed_size: 38992
    .kernarg_segment_align: 8
    .kernarg_segment_size: 24
    .max_flat_workgroup_size: 256
    .name: dwconv3d_mfma_band
    .private_segment_fixed_size: 0
    .reqd_workgroup_size: [256, 1, 1]
    .sgpr_count: 20
    .sgpr_spill_count: 0
    .symbol: dwconv3d_mfma_band.kd
    .uses_dynamic_stack: false
    .vgpr_count: 109
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx950
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
