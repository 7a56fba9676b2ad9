// Landing-gear strut housing (outer cylinder of the oleo strut): a steel tube
// 0.75 m long along y, 140 mm outside, 110 mm inside diameter, with a lug at
// the top. Second-order tetrahedra. Physical groups: TOP (the ring at y = 0.75,
// bolted to the airframe), BOTTOM (the ring at y = 0, the lower bearing of the
// piston), HOUSING (the volume).
SetFactory("OpenCASCADE");
Cylinder(1) = {0, 0, 0, 0, 0.75, 0, 0.07};
Cylinder(2) = {0, 0, 0, 0, 0.75, 0, 0.055};
BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };
Mesh.CharacteristicLengthMax = 0.025;
Mesh.ElementOrder = 2;
Mesh.MshFileVersion = 2.2;
Physical Volume("HOUSING") = {3};
top() = Surface In BoundingBox{-1, 0.7499, -1, 1, 0.7501, 1};
bot() = Surface In BoundingBox{-1, -0.0001, -1, 1, 0.0001, 1};
Physical Surface("TOP") = {top()};
Physical Surface("BOTTOM") = {bot()};
