	.amdgcn_target "amdgcn-amd-amdhsa--gfx942"
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
  v_mul_u32_u24 v2, 0xa8, v1 ; side_pad_addr workitem_id_x  @dwconv_mfma.cpp:239
  v_cmp_gt_u32 vcc, 0x9c, v1 ; workitem_id_x  @dwconv_mfma.cpp:247
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:247
  s_cbranch_execz .Lelse_2 ; dwconv_mfma.cpp:247
  ds_write_b32 v2, v4 offset:164 ; side_pad_addr zero16[0]  @dwconv_mfma.cpp:245
  ds_write_b32 v2, v4 offset:168 ; side_pad_addr zero16[0]  @dwconv_mfma.cpp:245
.Lelse_2:
.Lendif_3:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:247
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 21, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_4 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_4:
.Lendif_5:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 2, v1 ; zero_addr4 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 2, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_6 ; dwconv_mfma.cpp:214
  ds_write_b32 v2, v4 offset:7896 ; zero_addr4 zero16[0]  @dwconv_mfma.cpp:212
.Lelse_6:
.Lendif_7:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 0x49, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_8 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] offset:7904 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_8:
.Lendif_9:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 2, v1 ; zero_addr4 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 2, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_10 ; dwconv_mfma.cpp:214
  ds_write_b32 v2, v4 offset:16632 ; zero_addr4 zero16[0]  @dwconv_mfma.cpp:212
.Lelse_10:
.Lendif_11:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 0x49, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_12 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] offset:16640 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_12:
.Lendif_13:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 2, v1 ; zero_addr4 workitem_id_x  @dwconv_mfma.cpp:207
  v_cmp_gt_u32 vcc, 2, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_14 ; dwconv_mfma.cpp:214
  ds_write_b32 v2, v4 offset:25368 ; zero_addr4 zero16[0]  @dwconv_mfma.cpp:212
.Lelse_14:
.Lendif_15:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  v_lshlrev_b32 v2, 4, v1 ; zero_addr16 workitem_id_x  @dwconv_mfma.cpp:207
  ds_write_b128 v2, v[4:7] offset:25376 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
  v_cmp_gt_u32 vcc, 0x9e, v1 ; workitem_id_x  @dwconv_mfma.cpp:214
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:214
  s_cbranch_execz .Lelse_16 ; dwconv_mfma.cpp:214
  ds_write_b128 v2, v[4:7] offset:29472 ; zero_addr16 zero16  @dwconv_mfma.cpp:211
.Lelse_16:
.Lendif_17:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:214
  s_waitcnt lgkmcnt(0) ; dwconv_mfma.cpp:256
  s_barrier ; dwconv_mfma.cpp:257
  s_waitcnt vmcnt(0) ; dwconv_mfma.cpp:263
  v_cmp_gt_u32 vcc, 0x4b, v1 ; workitem_id_x  @dwconv_mfma.cpp:288
  s_and_saveexec_b64 s[2:3], vcc ; saved_exec  @dwconv_mfma.cpp:288
  s_cbranch_execz .Lelse_18 ; dwconv_mfma.cpp:288
  v_mul_u32_u24 v2, 0x3334, v1 ; t_times_m workitem_id_x  @dwconv_mfma.cpp:271
  v_lshrrev_b32 v4, 16, v2 ; band_row t_times_m  @dwconv_mfma.cpp:273
  v_mul_u32_u24 v2, 5, v4 ; row_times_kw band_row  @dwconv_mfma.cpp:275
  v_sub_u32 v5, v1, v2 ; band_tap workitem_id_x row_times_kw  @dwconv_mfma.cpp:277
  v_mul_u32_u24 v1, 0x60, v4 ; band_row_byte band_row  @dwconv_mfma.cpp:280
  v_lshl_add_u32 v2, v5, 1, v1 ; band_addr band_tap band_row_byte  @dwconv_mfma.cpp:282
  v_add_u32 v1, 0x669e, v2 ; band_addr band_addr  @dwconv_mfma.cpp:284
  ds_write_b16 v1, v3 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:1438 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:2876 ; band_addr tap0  @dwconv_mfma.cpp:286
  ds_write_b16 v1, v3 offset:4314 ; band_addr tap0  @dwconv_mfma.cpp:286
.Lelse_18:
.Lendif_19:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:288
  v_lshlrev_b32 v1, 2, v0 ; lane_off0 lane  @dwconv_mfma.cpp:303
  s_mov_b32 s2, 0x1c20 ; slice_bytes  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s0, s2 ; slab_goff d_out slice_bytes  @dwconv_mfma.cpp:311
  s_add_u32 s3, s3, s11 ; slab_goff slab_goff in_nc_off  @dwconv_mfma.cpp:312
  s_mov_b32 s0, 0xa0 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s2, s1, s0 ; wave_row_goff wave factor  @dwconv_mfma.cpp:148
  s_add_u32 s3, s3, s2 ; slab_goff slab_goff wave_row_goff  @dwconv_mfma.cpp:314
  s_mov_b32 s0, 0xa8 ; factor  @dwconv_mfma.cpp:123
  s_mul_i32 s2, s1, s0 ; wave_row_loff wave factor  @dwconv_mfma.cpp:148
  v_cmp_gt_u32 vcc, 40, v0 ; lane  @dwconv_mfma.cpp:363
  s_and_saveexec_b64 s[6:7], vcc ; saved_exec  @dwconv_mfma.cpp:363
  s_cbranch_execz .Lelse_20 ; dwconv_mfma.cpp:363
  s_add_u32 s0, s3, 0 ; slice_goff slab_goff  @dwconv_mfma.cpp:322
  s_add_u32 s8, s4, s0 ; row_ptr[0] input[0] slice_goff  @dwconv_mfma.cpp:323
  s_addc_u32 s9, s5, 0 ; row_ptr[1] input[1]  @dwconv_mfma.cpp:324
  s_add_u32 m0, s2, 0x154 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3f4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x694 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x934 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0xbd4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0xe74 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1114 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x13b4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1654 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x18f4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1b94 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_cmp_lt_u32 s1, 1 ; wave  @dwconv_mfma.cpp:344
  s_cbranch_scc0 .Lelse_22 ; dwconv_mfma.cpp:344
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x1e34 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
.Lelse_22:
.Lendif_23:
  s_add_u32 s0, s3, 0x1c20 ; slice_goff slab_goff  @dwconv_mfma.cpp:322
  s_add_u32 s8, s4, s0 ; row_ptr[0] input[0] slice_goff  @dwconv_mfma.cpp:323
  s_addc_u32 s9, s5, 0 ; row_ptr[1] input[1]  @dwconv_mfma.cpp:324
  s_add_u32 m0, s2, 0x2374 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x2614 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x28b4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x2b54 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x2df4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3094 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3334 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x35d4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3874 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3b14 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x3db4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_cmp_lt_u32 s1, 1 ; wave  @dwconv_mfma.cpp:344
  s_cbranch_scc0 .Lelse_24 ; dwconv_mfma.cpp:344
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4054 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
.Lelse_24:
.Lendif_25:
  s_add_u32 s0, s3, 0x3840 ; slice_goff slab_goff  @dwconv_mfma.cpp:322
  s_add_u32 s8, s4, s0 ; row_ptr[0] input[0] slice_goff  @dwconv_mfma.cpp:323
  s_addc_u32 s9, s5, 0 ; row_ptr[1] input[1]  @dwconv_mfma.cpp:324
  s_add_u32 m0, s2, 0x4594 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4834 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4ad4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x4d74 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5014 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x52b4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5554 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x57f4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5a94 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5d34 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x5fd4 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
  s_cmp_lt_u32 s1, 1 ; wave  @dwconv_mfma.cpp:344
  s_cbranch_scc0 .Lelse_26 ; dwconv_mfma.cpp:344
  s_add_u32 s8, s8, 0x280 ; row_ptr[0] row_ptr[0]  @dwconv_mfma.cpp:328
  s_addc_u32 s9, s9, 0 ; row_ptr[1] row_ptr[1]  @dwconv_mfma.cpp:329
  s_add_u32 m0, s2, 0x6274 ; wave_row_loff  @dwconv_mfma.cpp:334
  s_nop 0 ; hazard salu-m0: SALU writes m0, which this instruction reads
  global_load_lds_dword v1, s[8:9] ; lane_off0 row_ptr  @dwconv_mfma.cpp:335
.Lelse_26:
.Lendif_27:
.Lelse_20:
.Lendif_21:
  s_mov_b64 exec, s[6:7] ; saved_exec  @dwconv_mfma.cpp:363
  s_waitcnt vmcnt(0) lgkmcnt(0) ; dwconv_mfma.cpp:379
  s_barrier ; dwconv_mfma.cpp:380
  v_and_b32 v1, 15, v0 ; n lane  @dwconv_mfma.cpp:386
  v_lshrrev_b32 v2, 4, v0 ; g lane  @dwconv_mfma.cpp:388
  v_lshlrev_b32 v0, 2, v2 ; g4 g  @dwconv_mfma.cpp:391
  v_add_u32 v3, v1, v2 ; n_plus_g n g  @dwconv_mfma.cpp:395
  v_mul_u32_u24 v4, 0xa8, v3 ; b_rows n_plus_g  @dwconv_mfma.cpp:397
  v_mul_u32_u24 v3, 0xa8, v1 ; n_row n  @dwconv_mfma.cpp:399
  v_mad_u32_u24 v5, v2, 8, v3 ; b_cols g n_row  @dwconv_mfma.cpp:401
  v_sub_u32 v3, 15, v1 ; rev n  @dwconv_mfma.cpp:405
  v_and_b32 v6, 3, v3 ; copy rev  @dwconv_mfma.cpp:407
  v_sub_u32 v7, v3, v6 ; aligned rev copy  @dwconv_mfma.cpp:409
  v_mul_u32_u24 v3, 0x5a0, v6 ; zb copy  @dwconv_mfma.cpp:411
  v_lshl_add_u32 v3, v7, 1, v3 ; zb aligned zb  @dwconv_mfma.cpp:412
  s_mov_b32 s0, 0x60 ; band_row_bytes  @dwconv_mfma.cpp:123
  v_mad_u32_u24 v6, v2, s0, v3 ; z_rows g band_row_bytes zb  @dwconv_mfma.cpp:414
  v_mad_u32_u24 v7, v2, 8, v3 ; z_cols g zb  @dwconv_mfma.cpp:417
  v_mul_u32_u24 v2, 0xa0, v1 ; out_row n  @dwconv_mfma.cpp:421
  v_lshl_add_u32 v3, v0, 1, v2 ; out_lane g4 out_row  @dwconv_mfma.cpp:423
  ds_read_b64 v[8:9], v6 offset:26240 ; band0 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[10:11], v6 offset:26248 ; band1 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[12:13], v6 offset:26256 ; band2 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[14:15], v6 offset:26264 ; band3 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[16:17], v6 offset:26272 ; band4 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[18:19], v6 offset:26720 ; band5 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[20:21], v6 offset:26728 ; band6 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[22:23], v6 offset:26736 ; band7 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[24:25], v6 offset:26744 ; band8 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[26:27], v6 offset:26752 ; band9 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[28:29], v6 offset:27200 ; band10 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[30:31], v6 offset:27208 ; band11 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[32:33], v6 offset:27216 ; band12 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[34:35], v6 offset:27224 ; band13 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[36:37], v6 offset:27232 ; band14 z_rows  @dwconv_mfma.cpp:429
  ds_read_b64 v[38:39], v7 offset:26624 ; band15 z_cols  @dwconv_mfma.cpp:429
  ds_read_b64 v[40:41], v7 offset:26656 ; band16 z_cols  @dwconv_mfma.cpp:429
  ds_read_b64 v[42:43], v7 offset:27104 ; band17 z_cols  @dwconv_mfma.cpp:429
  ds_read_b64 v[44:45], v7 offset:27136 ; band18 z_cols  @dwconv_mfma.cpp:429
  ds_read_b64 v[46:47], v7 offset:27584 ; band19 z_cols  @dwconv_mfma.cpp:429
  ds_read_b64 v[48:49], v7 offset:27616 ; band20 z_cols  @dwconv_mfma.cpp:429
  s_mov_b32 s0, s1 ; block wave  @dwconv_mfma.cpp:452
  s_cmp_lt_u32 s0, 15 ; block  @dwconv_mfma.cpp:458
  s_cbranch_scc0 .Lelse_28 ; dwconv_mfma.cpp:458
  s_mov_b32 s1, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s2, s0, s1 ; hblock block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s2, s2, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s1, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s1 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s1, s0, s3 ; strip block q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s3, 0xa80 ; tile_block_rows  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s2, s3 ; tile_block_row hblock tile_block_rows  @dwconv_mfma.cpp:486
  s_lshl_b32 s2, s1, 5 ; tile_block strip  @dwconv_mfma.cpp:488
  s_add_u32 s2, s2, s4 ; tile_block tile_block tile_block_row  @dwconv_mfma.cpp:489
  v_add_u32 v2, s2, v4 ; b_rows_t tile_block b_rows  @dwconv_mfma.cpp:491
  v_add_u32 v6, s2, v5 ; b_cols_t tile_block b_cols  @dwconv_mfma.cpp:493
  ds_read_b64 v[50:51], v2 ; in0 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[52:53], v2 offset:8 ; in1 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[54:55], v2 offset:16 ; in2 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[56:57], v2 offset:24 ; in3 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[58:59], v2 offset:32 ; in4 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[60:61], v2 offset:8736 ; in5 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[62:63], v2 offset:8744 ; in6 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[64:65], v2 offset:8752 ; in7 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[66:67], v2 offset:8760 ; in8 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[68:69], v2 offset:8768 ; in9 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[70:71], v2 offset:17472 ; in10 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[72:73], v2 offset:17480 ; in11 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[74:75], v2 offset:17488 ; in12 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[76:77], v2 offset:17496 ; in13 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[78:79], v2 offset:17504 ; in14 b_rows_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[80:81], v6 offset:672 ; in15 b_cols_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[82:83], v6 offset:704 ; in16 b_cols_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[84:85], v6 offset:9408 ; in17 b_cols_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[86:87], v6 offset:9440 ; in18 b_cols_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[88:89], v6 offset:18144 ; in19 b_cols_t  @dwconv_mfma.cpp:429
  ds_read_b64 v[90:91], v6 offset:18176 ; in20 b_cols_t  @dwconv_mfma.cpp:429
  s_add_u32 s1, s0, 4 ; next_block block  @dwconv_mfma.cpp:455
  s_cmp_lt_u32 s1, 15 ; next_block  @dwconv_mfma.cpp:456
  s_cbranch_scc0 .Lelse_30 ; dwconv_mfma.cpp:462
.Lloop_32:
  s_add_u32 s1, s0, 4 ; next_block block  @dwconv_mfma.cpp:508
  s_mov_b32 s2, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s3, s1, s2 ; hblock next_block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s3, s3, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s2, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s3, s2 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s2, s1, s4 ; strip next_block q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s1, 0xa80 ; tile_block_rows  @dwconv_mfma.cpp:123
  s_mul_i32 s4, s3, s1 ; tile_block_row hblock tile_block_rows  @dwconv_mfma.cpp:486
  s_lshl_b32 s1, s2, 5 ; tile_block strip  @dwconv_mfma.cpp:488
  s_add_u32 s1, s1, s4 ; tile_block tile_block tile_block_row  @dwconv_mfma.cpp:489
  v_add_u32 v2, s1, v4 ; b_rows_t tile_block b_rows  @dwconv_mfma.cpp:491
  v_add_u32 v96, s1, v5 ; b_cols_t tile_block b_cols  @dwconv_mfma.cpp:493
  v_mov_b32 v92, 0 ; acc[0]  @dwconv_mfma.cpp:512
  v_mov_b32 v93, 0 ; acc[1]  @dwconv_mfma.cpp:512
  v_mov_b32 v94, 0 ; acc[2]  @dwconv_mfma.cpp:512
  v_mov_b32 v95, 0 ; acc[3]  @dwconv_mfma.cpp:512
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  s_nop 0 ; hazard valu-vgpr-mfma: VALU writes v[92:95], which the MFMA reads
  v_mfma_f32_16x16x16_bf16 v[92:95], v[8:9], v[50:51], v[92:95] ; acc band0 in0 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[50:51], v2 ; in0 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[10:11], v[52:53], v[92:95] ; acc band1 in1 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[52:53], v2 offset:8 ; in1 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[12:13], v[54:55], v[92:95] ; acc band2 in2 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[54:55], v2 offset:16 ; in2 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[14:15], v[56:57], v[92:95] ; acc band3 in3 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[56:57], v2 offset:24 ; in3 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[16:17], v[58:59], v[92:95] ; acc band4 in4 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[58:59], v2 offset:32 ; in4 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[18:19], v[60:61], v[92:95] ; acc band5 in5 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[60:61], v2 offset:8736 ; in5 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[20:21], v[62:63], v[92:95] ; acc band6 in6 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[62:63], v2 offset:8744 ; in6 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[22:23], v[64:65], v[92:95] ; acc band7 in7 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[64:65], v2 offset:8752 ; in7 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[24:25], v[66:67], v[92:95] ; acc band8 in8 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[66:67], v2 offset:8760 ; in8 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[26:27], v[68:69], v[92:95] ; acc band9 in9 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[68:69], v2 offset:8768 ; in9 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[28:29], v[70:71], v[92:95] ; acc band10 in10 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[70:71], v2 offset:17472 ; in10 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[30:31], v[72:73], v[92:95] ; acc band11 in11 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[72:73], v2 offset:17480 ; in11 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[32:33], v[74:75], v[92:95] ; acc band12 in12 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[74:75], v2 offset:17488 ; in12 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[34:35], v[76:77], v[92:95] ; acc band13 in13 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[76:77], v2 offset:17496 ; in13 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[36:37], v[78:79], v[92:95] ; acc band14 in14 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[78:79], v2 offset:17504 ; in14 b_rows_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[38:39], v[80:81], v[92:95] ; acc band15 in15 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[80:81], v96 offset:672 ; in15 b_cols_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[40:41], v[82:83], v[92:95] ; acc band16 in16 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[82:83], v96 offset:704 ; in16 b_cols_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[42:43], v[84:85], v[92:95] ; acc band17 in17 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[84:85], v96 offset:9408 ; in17 b_cols_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[44:45], v[86:87], v[92:95] ; acc band18 in18 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[86:87], v96 offset:9440 ; in18 b_cols_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[46:47], v[88:89], v[92:95] ; acc band19 in19 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[88:89], v96 offset:18144 ; in19 b_cols_t  @dwconv_mfma.cpp:429
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[92:95], v[48:49], v[90:91], v[92:95] ; acc band20 in20 acc  @dwconv_mfma.cpp:518
  ds_read_b64 v[90:91], v96 offset:18176 ; in20 b_cols_t  @dwconv_mfma.cpp:429
  s_mov_b32 s1, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s2, s0, s1 ; hblock block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s2, s2, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s1, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s1 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s1, s0, s3 ; strip block q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s3, 0x7fff ; c7fff  @dwconv_mfma.cpp:123
  v_bfe_u32 v2, v92, 16, 1 ; bf16_lsb acc[0]  @dsl_emitter.hpp:156
  v_add3_u32 v96, v92, v2, s3 ; bf16_rounded acc[0] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v2, 0x400000, v92 ; bf16_qnan acc[0]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v92, v92 ; acc[0] acc[0]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v96, v96, v2, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  v_bfe_u32 v2, v93, 16, 1 ; bf16_lsb acc[1]  @dsl_emitter.hpp:156
  v_add3_u32 v97, v93, v2, s3 ; bf16_rounded acc[1] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v2, 0x400000, v93 ; bf16_qnan acc[1]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v93, v93 ; acc[1] acc[1]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v97, v97, v2, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  s_mov_b32 s3, 0x7060302 ; perm_hi_halves  @dwconv_mfma.cpp:123
  v_perm_b32 v2, v97, v96, s3 ; packed bf16_rounded bf16_rounded perm_hi_halves  @dwconv_mfma.cpp:533
  s_mov_b32 s3, 0x7fff ; c7fff  @dwconv_mfma.cpp:123
  v_bfe_u32 v96, v94, 16, 1 ; bf16_lsb acc[2]  @dsl_emitter.hpp:156
  v_add3_u32 v97, v94, v96, s3 ; bf16_rounded acc[2] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v96, 0x400000, v94 ; bf16_qnan acc[2]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v94, v94 ; acc[2] acc[2]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v97, v97, v96, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  v_bfe_u32 v96, v95, 16, 1 ; bf16_lsb acc[3]  @dsl_emitter.hpp:156
  v_add3_u32 v98, v95, v96, s3 ; bf16_rounded acc[3] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v96, 0x400000, v95 ; bf16_qnan acc[3]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v95, v95 ; acc[3] acc[3]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v98, v98, v96, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  s_mov_b32 s3, 0x7060302 ; perm_hi_halves  @dwconv_mfma.cpp:123
  v_perm_b32 v96, v98, v97, s3 ; packed bf16_rounded bf16_rounded perm_hi_halves  @dwconv_mfma.cpp:533
  v_mov_b32 v6, v2 ; out_pair[0] packed  @dwconv_mfma.cpp:542
  v_mov_b32 v7, v96 ; out_pair[1] packed  @dwconv_mfma.cpp:543
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
  s_cbranch_execz .Lelse_33 ; dwconv_mfma.cpp:559
  global_store_dwordx2 v2, v[6:7], s[12:13] ; out_addr out_pair out_plane  @dwconv_mfma.cpp:565
.Lelse_33:
.Lendif_34:
  s_mov_b64 exec, s[2:3] ; saved_exec  @dwconv_mfma.cpp:559
  s_add_u32 s0, s0, 4 ; block block  @dwconv_mfma.cpp:466
  s_add_u32 s1, s0, 4 ; next_block block  @dwconv_mfma.cpp:455
  s_cmp_lt_u32 s1, 15 ; next_block  @dwconv_mfma.cpp:456
  s_cbranch_scc1 .Lloop_32 ; dwconv_mfma.cpp:463
.Lelse_30:
.Lendif_31:
  v_mov_b32 v4, 0 ; acc[0]  @dwconv_mfma.cpp:512
  v_mov_b32 v5, 0 ; acc[1]  @dwconv_mfma.cpp:512
  v_mov_b32 v6, 0 ; acc[2]  @dwconv_mfma.cpp:512
  v_mov_b32 v7, 0 ; acc[3]  @dwconv_mfma.cpp:512
  s_waitcnt lgkmcnt(14) ; dwconv_mfma.cpp:517
  s_nop 0 ; hazard valu-vgpr-mfma: VALU writes v[4:7], which the MFMA reads
  v_mfma_f32_16x16x16_bf16 v[4:7], v[8:9], v[50:51], v[4:7] ; acc band0 in0 acc  @dwconv_mfma.cpp:518
  v_mfma_f32_16x16x16_bf16 v[4:7], v[10:11], v[52:53], v[4:7] ; acc band1 in1 acc  @dwconv_mfma.cpp:518
  v_mfma_f32_16x16x16_bf16 v[4:7], v[12:13], v[54:55], v[4:7] ; acc band2 in2 acc  @dwconv_mfma.cpp:518
  v_mfma_f32_16x16x16_bf16 v[4:7], v[14:15], v[56:57], v[4:7] ; acc band3 in3 acc  @dwconv_mfma.cpp:518
  v_mfma_f32_16x16x16_bf16 v[4:7], v[16:17], v[58:59], v[4:7] ; acc band4 in4 acc  @dwconv_mfma.cpp:518
  v_mfma_f32_16x16x16_bf16 v[4:7], v[18:19], v[60:61], v[4:7] ; acc band5 in5 acc  @dwconv_mfma.cpp:518
  v_mfma_f32_16x16x16_bf16 v[4:7], v[20:21], v[62:63], v[4:7] ; acc band6 in6 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(13) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[22:23], v[64:65], v[4:7] ; acc band7 in7 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(12) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[24:25], v[66:67], v[4:7] ; acc band8 in8 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(11) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[26:27], v[68:69], v[4:7] ; acc band9 in9 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(10) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[28:29], v[70:71], v[4:7] ; acc band10 in10 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(9) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[30:31], v[72:73], v[4:7] ; acc band11 in11 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(8) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[32:33], v[74:75], v[4:7] ; acc band12 in12 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(7) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[34:35], v[76:77], v[4:7] ; acc band13 in13 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(6) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[36:37], v[78:79], v[4:7] ; acc band14 in14 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(5) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[38:39], v[80:81], v[4:7] ; acc band15 in15 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(4) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[40:41], v[82:83], v[4:7] ; acc band16 in16 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(3) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[42:43], v[84:85], v[4:7] ; acc band17 in17 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(2) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[44:45], v[86:87], v[4:7] ; acc band18 in18 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(1) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[46:47], v[88:89], v[4:7] ; acc band19 in19 acc  @dwconv_mfma.cpp:518
  s_waitcnt lgkmcnt(0) ; dwconv_mfma.cpp:517
  v_mfma_f32_16x16x16_bf16 v[4:7], v[48:49], v[90:91], v[4:7] ; acc band20 in20 acc  @dwconv_mfma.cpp:518
  s_mov_b32 s1, 0xcccccccd ; magic  @dwconv_mfma.cpp:123
  s_mul_hi_u32 s2, s0, s1 ; hblock block magic  @dwconv_mfma.cpp:134
  s_lshr_b32 s2, s2, 2 ; hblock hblock  @dwconv_mfma.cpp:135
  s_mov_b32 s1, 5 ; divisor  @dwconv_mfma.cpp:123
  s_mul_i32 s3, s2, s1 ; q_times_d hblock divisor  @dwconv_mfma.cpp:141
  s_sub_u32 s1, s0, s3 ; strip block q_times_d  @dwconv_mfma.cpp:143
  s_mov_b32 s0, 0x7fff ; c7fff  @dwconv_mfma.cpp:123
  v_bfe_u32 v2, v4, 16, 1 ; bf16_lsb acc[0]  @dsl_emitter.hpp:156
  v_add3_u32 v8, v4, v2, s0 ; bf16_rounded acc[0] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v2, 0x400000, v4 ; bf16_qnan acc[0]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v4, v4 ; acc[0] acc[0]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v8, v8, v2, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  v_bfe_u32 v2, v5, 16, 1 ; bf16_lsb acc[1]  @dsl_emitter.hpp:156
  v_add3_u32 v9, v5, v2, s0 ; bf16_rounded acc[1] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v2, 0x400000, v5 ; bf16_qnan acc[1]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v5, v5 ; acc[1] acc[1]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v9, v9, v2, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  s_mov_b32 s0, 0x7060302 ; perm_hi_halves  @dwconv_mfma.cpp:123
  v_perm_b32 v2, v9, v8, s0 ; packed bf16_rounded bf16_rounded perm_hi_halves  @dwconv_mfma.cpp:533
  s_mov_b32 s0, 0x7fff ; c7fff  @dwconv_mfma.cpp:123
  v_bfe_u32 v8, v6, 16, 1 ; bf16_lsb acc[2]  @dsl_emitter.hpp:156
  v_add3_u32 v9, v6, v8, s0 ; bf16_rounded acc[2] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v8, 0x400000, v6 ; bf16_qnan acc[2]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v6, v6 ; acc[2] acc[2]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v9, v9, v8, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  v_bfe_u32 v8, v7, 16, 1 ; bf16_lsb acc[3]  @dsl_emitter.hpp:156
  v_add3_u32 v10, v7, v8, s0 ; bf16_rounded acc[3] bf16_lsb c7fff  @dsl_emitter.hpp:158
  v_or_b32 v8, 0x400000, v7 ; bf16_qnan acc[3]  @dsl_emitter.hpp:160
  v_cmp_u_f32 vcc, v7, v7 ; acc[3] acc[3]  @dsl_emitter.hpp:161
  s_nop 1 ; hazard valu-sgpr-valu: VALU writes vcc, which this VALU reads
  v_cndmask_b32 v10, v10, v8, vcc ; bf16_rounded bf16_rounded bf16_qnan  @dsl_emitter.hpp:162
  s_mov_b32 s0, 0x7060302 ; perm_hi_halves  @dwconv_mfma.cpp:123
  v_perm_b32 v4, v10, v9, s0 ; packed bf16_rounded bf16_rounded perm_hi_halves  @dwconv_mfma.cpp:533
  v_mov_b32 v6, v2 ; out_pair[0] packed  @dwconv_mfma.cpp:542
  v_mov_b32 v7, v4 ; out_pair[1] packed  @dwconv_mfma.cpp:543
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
  s_cbranch_execz .Lelse_35 ; dwconv_mfma.cpp:559
  global_store_dwordx2 v2, v[6:7], s[12:13] ; out_addr out_pair out_plane  @dwconv_mfma.cpp:565
.Lelse_35:
.Lendif_36:
  s_mov_b64 exec, s[0:1] ; saved_exec  @dwconv_mfma.cpp:559
.Lelse_28:
.Lendif_29:
  s_endpgm ; implicit end of program  dwconv_mfma.cpp:583
.Ldwconv3d_mfma_band_end:
	.size	dwconv3d_mfma_band, .Ldwconv3d_mfma_band_end-dwconv3d_mfma_band
	.section	.rodata,"a",@progbits
	.p2align	6, 0x0
	.amdhsa_kernel dwconv3d_mfma_band
		.amdhsa_group_segment_fixed_size 32000
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
		.amdhsa_next_free_vgpr 99
		.amdhsa_next_free_sgpr 14
		.amdhsa_accum_offset 100
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
    .group_segment_fixed_size: 32000
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
    .vgpr_count: 99
    .vgpr_spill_count: 0
    .wavefront_size: 64
amdhsa.target: amdgcn-amd-amdhsa--gfx942
amdhsa.version:
  - 1
  - 2
...
	.end_amdgpu_metadata
