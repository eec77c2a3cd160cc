# SPDX-License-Identifier: GPL-2.0-or-later
# Fills the folder DST with symlinks to every file of Valgrind's library folder SRC (core
# preloads, stock tools, gdbserver XML) and, when TOOL is given, a symlink to the vpmu tool.
file(MAKE_DIRECTORY ${DST})
file(GLOB _files ${SRC}/*)
foreach(f ${_files})
	get_filename_component(_name ${f} NAME)
	if(NOT _name STREQUAL "vpmu-amd64-linux")
		file(CREATE_LINK ${f} ${DST}/${_name} SYMBOLIC)
	endif()
endforeach()
if(TOOL)
	file(CREATE_LINK ${TOOL} ${DST}/vpmu-amd64-linux SYMBOLIC)
endif()
