# SPDX-License-Identifier: GPL-2.0-or-later
# Fills the folder DST with symlinks to every file of Valgrind's library folder SRC (core
# preloads, stock tools, gdbserver XML) and, when TOOL is given, a symlink to the vpmu tool.
# The tool also answers to the name vpmuheap (vpmuheap-amd64-linux, a link to it), whose
# preload PRELOAD replaces the client's allocator (docs/vpmu.md, "Heap blocks"); with
# HEAPLINK (an installed folder, where the tool and the preload are files already) only the
# name's link is made.
file(MAKE_DIRECTORY ${DST})
file(GLOB _files ${SRC}/*)
foreach(f ${_files})
	get_filename_component(_name ${f} NAME)
	if(NOT _name MATCHES "^(vpmu|vpmuheap)-amd64-linux$|^vgpreload_vpmuheap-")
		file(CREATE_LINK ${f} ${DST}/${_name} SYMBOLIC)
	endif()
endforeach()
if(TOOL)
	file(CREATE_LINK ${TOOL} ${DST}/vpmu-amd64-linux SYMBOLIC)
endif()
if(PRELOAD)
	file(CREATE_LINK ${PRELOAD} ${DST}/vgpreload_vpmuheap-amd64-linux.so SYMBOLIC)
endif()
if(TOOL OR HEAPLINK)
	file(CREATE_LINK vpmu-amd64-linux ${DST}/vpmuheap-amd64-linux SYMBOLIC)
endif()
